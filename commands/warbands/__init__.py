"""Warhammer Warbands (`warbands`): Warband Rating, Veteran Status and character Archetypes
(seed 003, White Dwarf 298; rules restated in shared/rules/warbands.md as R1–R25, U1–U12).

`rules` (pure functions) and `tables` (data files, a group's own tables) are the game.
"""
