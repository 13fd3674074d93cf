"""Default Trench Crusade tables (JSON); a package so that setuptools ships the files."""
