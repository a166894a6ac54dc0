CREATE TABLE u (
    a ${blob}
);
