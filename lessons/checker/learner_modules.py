"""The checker's modules a learner process imports, by name: the fork server preloads them, and each run's request names them.

Their home is here, importing nothing, so that naming them costs the
command nothing before its fork server starts (:mod:`.server_start`).
"""

# What reads the learner's script before it runs: answers the contract's questions, rewrites it for a rerun.
READING_MODULE = "attnpos.lessons.checker.rerun"
# Where a rerun's replacement expressions live.
SUBSTITUTES_MODULE = "attnpos.lessons.checker.substitutes"
# Where a rerun keeps a copy of each value it gives, as given (substitutes.given): the judge compares it with the value
# the script left, for the inputs a contract keeps (contracts.common.Contract.kept).
GIVEN_PREFIX = "__attnpos_given_"
