"""Borrowing: `import attnpos.core.extension as ext` (a plain import) and operator.attrgetter('ntk_base')(ext), so no ast.Attribute and no getattr/vars/dir call names the function. Expect might pass: rerun.borrows flags only ImportFrom names, attribute nodes and INTROSPECTING calls."""
import numpy as np

hs = 128  # head width: 64 channel pairs
rope_theta = 10000.0  # the base the model was trained with
factor = 4.0  # s = L' / L: a context 4 times longer
exponents = np.arange(0, hs, 2) / hs
inv_freq = 1.0 / rope_theta**exponents
inv_freq_pi = inv_freq / factor
import operator
import attnpos.core.extension as ext
base_ntk = operator.attrgetter("ntk_base")(ext)(rope_theta, factor, hs)
inv_freq_ntk = 1.0 / base_ntk**exponents
ends = [0, -1]
print("PI  ratio:", inv_freq_pi[ends] / inv_freq[ends])
print("NTK ratio:", inv_freq_ntk[ends] / inv_freq[ends])
