package dev.parley.engine;

/**
 * The work of one turn, run by {@link SessionService#runTurn} while the lease is refreshed in the background.
 */
@FunctionalInterface
public interface TurnBody {

    /**
     * Runs the turn.
     *
     * @param heartbeat the heartbeat keeping the lease fresh; a long body may poll {@link TurnHeartbeat#lost()} to
     *     stop early, since its result can no longer be committed once the lease is lost
     * @return what the turn adds to the session record, never null
     * @throws RuntimeException anything; it propagates out of {@code runTurn} and nothing is written
     */
    CompletedTurn run(TurnHeartbeat heartbeat);
}
