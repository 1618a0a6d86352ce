"""Right: pe a view of the (T, C/2, 2) pairs, shift_error measured through the pairs by a batched rotation (brief-only round 25)."""
import numpy as np

T, C = 12, 8
k = 3
w = 10000 ** (-np.arange(0, C, 2) / C)
th = np.arange(T)[:, None] * w
pairs = np.stack((np.sin(th), np.cos(th)), axis=2)   # (T, C/2, 2)
pe = pairs.reshape(T, C)
R = np.array([[[np.cos(k*x), np.sin(k*x)], [-np.sin(k*x), np.cos(k*x)]] for x in w])
M = np.zeros((C, C))
for i in range(C // 2):
    M[2*i:2*i+2, 2*i:2*i+2] = R[i]
moved = np.einsum('pab,tpb->tpa', R, pairs[:-k]).reshape(T - k, C)
shift_error = float(np.abs(pe[k:] - moved).max())
