package dev.parley.core.log;

import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * A message log that hands every call to another one: the base for decorators (metrics, tracing, tests that damage
 * or record what passes). Override the calls to intercept; the rest reach the delegate unchanged.
 *
 * <p>Every operation a backend may implement atomically is forwarded, {@link #appendIfLast} included, so a decorator
 * keeps the delegate's guarantees. The consequence: {@code appendIfLast} does not pass through an overridden
 * {@link #append}; a decorator that must see every write overrides both. Likewise {@link #lastSeq} is forwarded, so
 * that the delegate answers it from its index: a decorator that changes what {@code lastEntry} answers overrides
 * both. The derived operations ({@link #persistMessage}, {@link #flushUnpersisted}…) go through this object's
 * {@code append} and {@code load}.
 *
 * <p>Thread-safe if the delegate is; adds no state of its own.
 */
public abstract class ForwardingMessageLog implements MessageLog {
    private final MessageLog delegate;

    /**
     * @param delegate the log every call is handed to; not null
     * @throws NullPointerException if {@code delegate} is null
     */
    protected ForwardingMessageLog(MessageLog delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /**
     * The log every call is handed to.
     *
     * @return the delegate, as given to the constructor
     */
    protected final MessageLog delegate() {
        return delegate;
    }

    @Override
    public AppendResult append(SessionId session, AgentId agent, List<NewEntry> batch, Usage usage) {
        return delegate.append(session, agent, batch, usage);
    }

    @Override
    public AppendResult appendIfLast(SessionId session, AgentId agent, @Nullable EntryId expectedLast,
                                     List<NewEntry> batch, Usage usage) {
        return delegate.appendIfLast(session, agent, expectedLast, batch, usage);
    }

    @Override
    public List<Entry> load(SessionId session, @Nullable AgentId agent) {
        return delegate.load(session, agent);
    }

    @Override
    public Optional<Entry> lastEntry(SessionId session, AgentId agent) {
        return delegate.lastEntry(session, agent);
    }

    @Override
    public OptionalLong lastSeq(SessionId session, AgentId agent) {
        return delegate.lastSeq(session, agent);
    }

    @Override
    public void truncateAfter(SessionId session, EntryId entry) {
        delegate.truncateAfter(session, entry);
    }

    @Override
    public Usage loadUsage(SessionId session, AgentId agent) {
        return delegate.loadUsage(session, agent);
    }

    @Override
    public List<Entry> loadAfter(SessionId session, long afterSeq, int limit) {
        return delegate.loadAfter(session, afterSeq, limit);
    }

    @Override
    public java.util.Map<AgentId, Usage> loadAgentUsage(SessionId session) {
        return delegate.loadAgentUsage(session);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
