-- A draft's edit history for its editor's undo and redo: each row is the
-- draft (name and setup) as it was before an edit (redo false: the undo
-- stack) or before an undo (redo true); the newest row of a stack is its
-- top. An edit clears the redo stack; the undo stack keeps the newest 50.
CREATE TABLE draft_steps (
    draft_id uuid    NOT NULL REFERENCES drafts (id) ON DELETE CASCADE,
    seq      bigint  GENERATED ALWAYS AS IDENTITY,
    redo     boolean NOT NULL,
    name     text    NOT NULL,
    setup    jsonb   NOT NULL,
    PRIMARY KEY (draft_id, seq)
);
