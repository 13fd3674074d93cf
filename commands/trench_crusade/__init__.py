"""Trench Crusade ruleset (`trench-crusade`): campaign tables and pure post-battle rules."""
