DROP TABLE characters;
DROP TABLE bestiary;
DROP TABLE drafts;
