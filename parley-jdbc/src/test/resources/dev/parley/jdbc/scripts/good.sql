-- a table
CREATE TABLE t (
    a ${text} NOT NULL
);
CREATE INDEX t_a ON t (a);
