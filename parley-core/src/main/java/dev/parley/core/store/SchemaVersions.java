package dev.parley.core.store;

/**
 * Schema versions as the SQL backends record them (Flyway's history): the rule by which a database written by a newer
 * Parley is recognised and refused.
 */
public final class SchemaVersions {
    private SchemaVersions() {}

    /**
     * The newest of the applied versions, rounded up to a whole version: {@code 2.1} counts as 3, so that a database
     * migrated by a newer Parley with a point release is refused like any newer one. Versions that are not dotted
     * numbers (a host's own baseline marker) are ignored; none gives 0.
     *
     * @param versions the applied versions as recorded; a null element is skipped like any other that is not a dotted
     *     number
     * @return the newest whole version, at least 0
     */
    public static int newest(Iterable<String> versions) {
        int newest = 0;
        for (String raw : versions) {
            String v = raw == null ? "" : raw.trim();
            if (!v.matches("\\d{1,9}(\\.\\d{1,9})*")) {
                continue;
            }
            String[] parts = v.split("\\.");
            int major = Integer.parseInt(parts[0]);
            boolean point = false;
            for (int i = 1; i < parts.length; i++) {
                point |= Integer.parseInt(parts[i]) > 0;
            }
            newest = Math.max(newest, point ? major + 1 : major);
        }
        return newest;
    }
}
