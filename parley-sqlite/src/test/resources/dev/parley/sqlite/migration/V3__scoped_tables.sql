-- What a build tree of Parley 0.1.0-SNAPSHOT before the shared tables keeps among its compiled resources: the former
-- v3 file, deleted from the sources but not from target/classes by an incremental build. Flyway must not see it.
SELECT 1;
