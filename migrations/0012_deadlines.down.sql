DROP TABLE deadlines;
DROP TABLE encounter_deadlines;
