-- with a byte order mark
CREATE TABLE y (a ${text});
