package dev.parley.agent;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.ForwardingMessageLog;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A real log with a recorder in front: every append call is kept (its batch and usage, what it wrote), and the next
 * append can be made to lose its answer — it is stored, then the caller gets an {@link UnavailableException}, as
 * when a remote node times out after committing.
 */
final class RecordingLog extends ForwardingMessageLog {
    /** One append call: what was sent and how many entries the log wrote. */
    record Call(List<NewEntry> batch, Usage usage, int written) {}

    final List<Call> calls = new CopyOnWriteArrayList<>();
    private volatile boolean loseNextAnswer;

    RecordingLog(MessageLog delegate) {
        super(delegate);
    }

    /** The next append is stored, and then fails as if its answer was lost. */
    void loseNextAnswer() {
        loseNextAnswer = true;
    }

    @Override
    public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
        return record(batch, usage, delegate().append(session, agent, batch, usage));
    }

    private AppendResult record(List<NewEntry> batch, Usage usage, AppendResult result) {
        calls.add(new Call(List.copyOf(batch), usage, result.written()));
        if (loseNextAnswer) {
            loseNextAnswer = false;
            throw new UnavailableException("the answer to an append was lost (stored: " + result.written() + ")", null);
        }
        return result;
    }

    @Override
    public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                     List<NewEntry> batch, Usage usage) {
        return record(batch, usage, delegate().appendIfLast(session, agent, expectedLast, batch, usage));
    }
}
