"""The live class: the lecturer drives, the class follows and votes. See classroom/api.py."""
