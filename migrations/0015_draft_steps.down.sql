DROP TABLE draft_steps;
