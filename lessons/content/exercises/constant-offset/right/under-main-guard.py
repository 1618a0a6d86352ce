"""Everything under `if __name__ == '__main__':`, the runs in a function."""
import numpy as np
from attnpos.core import attention_output, slot_ramp, sinusoidal
rng = np.random.RandomState(42)
X = rng.randn(1, 6, 8)
Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
perm = np.array([3, 0, 5, 1, 4, 2])
if __name__ == '__main__':
    pos = np.full(8, 0.6)
    def run(tokens):
        return attention_output(tokens + pos, Wq, Wk, Wv)
    max_diff = np.abs(run(X[:, perm]) - run(X)[:, perm]).max()
    print(max_diff)
