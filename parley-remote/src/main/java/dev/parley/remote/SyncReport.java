package dev.parley.remote;

import org.jspecify.annotations.Nullable;

/**
 * What a replay of the journal did ({@link RemoteStore#sync()}).
 *
 * @param replayed writes the server acknowledged
 * @param conflicts writes the server refused, moved to the conflicts file and reported
 * @param pending writes still waiting, because the server stopped answering
 * @param stoppedBy why the replay stopped early, or null when it went through
 */
public record SyncReport(int replayed, int conflicts, int pending, @Nullable String stoppedBy) {}
