CREATE TABLE v (
    a TEXT
)
