"""The reading of the files an import brings in: players files (CSV) and results
files (the games CSV the export writes, or JSON Lines of game records), each read
and checked as a file alone, before anything is compared with what a club or a
league has.

Pure Python, as the rules engine is: plain data classes and functions, no Django
and no ``league.models`` (``tests/league/test_layout.py`` holds it so); it imports
:mod:`games`, :mod:`league.names` and :mod:`league.csv_format`. The import service
(:mod:`league.services.imports`) calls it, matches what it read against the
database (:mod:`league.services.import_matching`), checks the hands with the
engine and stores them.

- :mod:`~league.import_files.problems`: what is wrong with a file, and where
  (:class:`~league.import_files.problems.Problem`); problems as lines of text.
- :mod:`~league.import_files.values`: one value read (a name, a whole number, a
  date, a suit) within the limits a file may use.
- :mod:`~league.import_files.csv_rows`: a CSV file's rows: the decoding, the
  header, the export's formula guard taken off.
- :mod:`~league.import_files.players`: a players file's names.
- :mod:`~league.import_files.results`: what a results file holds (its tables of
  hands, by game night, round and number) and the formats it comes in.
- :mod:`~league.import_files.results_csv`, :mod:`~league.import_files.results_jsonl`:
  the readers of the two formats.

A reader adds what it finds wrong to a list of problems and reads on, so that a
check lists every problem of a file at once.
"""
