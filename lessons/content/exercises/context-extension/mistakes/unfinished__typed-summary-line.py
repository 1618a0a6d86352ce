"""Brief-only writer's script, round 14: right ratios printed, and a typed summary ("all 64 pairs by 4") that stays as it is on the reruns."""
import numpy as np

hs = 128              # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0          # s = L' / L: a context 4 times longer

inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)
inv_freq_pi = inv_freq / factor
base_ntk = rope_theta * factor ** (hs / (hs - 2))
inv_freq_ntk = 1.0 / base_ntk ** (np.arange(0, hs, 2) / hs)
print("PI / trained:", inv_freq_pi / inv_freq)
print("NTK / trained:", inv_freq_ntk / inv_freq)
print("summary: PI divides all 64 pairs by 4; NTK keeps pair 0 and divides pair 63 by 4")
