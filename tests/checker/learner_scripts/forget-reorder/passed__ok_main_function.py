"""setup in a main() function that publishes globals (a common script style)"""
import numpy as np
from attnpos.core import attention_output


def main():
    global X, Wq, Wk, Wv, perm, out, out_perm, naive_diff
    rng = np.random.RandomState(42)
    X = rng.randn(1, 6, 8)
    Wq, Wk, Wv = (0.5 * rng.randn(8, 8) for _ in range(3))
    perm = np.array([3, 0, 5, 1, 4, 2])
    out = attention_output(X, Wq, Wk, Wv)
    out_perm = attention_output(X[:, perm], Wq, Wk, Wv)
    naive_diff = np.abs(out_perm - out).max()
    print(naive_diff)


if __name__ == "__main__":
    main()
