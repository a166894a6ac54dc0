package dev.parley.agent;

import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.RawJson;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.ConversationItem;
import dev.parley.core.conversation.ConversationOptions;
import dev.parley.core.conversation.LoadedConversation;
import dev.parley.core.conversation.Repair;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.FlushResult;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Entry;
import dev.parley.core.model.EntryPayload;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * An agent that owns its conversation and its {@link AgentSession}, and persists everything it generates as the
 * conversation changes (panto's agent-owned persistence). The embedder never calls a persist
 * function:
 * <ul>
 *   <li>{@link #submitUserMessage} persists the prompt, stamped with provider and model, <em>before</em> any provider
 *       call;</li>
 *   <li>{@link #addSystemMessage} persists a system entry;</li>
 *   <li>{@link #runStep} drives the model/tool loop and persists each assistant message and each tool result as it is
 *       committed — what was committed before a failure stays, so a step that throws halfway leaves a log that
 *       resumes cleanly; each assistant message's usage is added to the agent's total;</li>
 *   <li>{@link #compact} persists its result as a compaction entry; the earlier entries stay in the log.</li>
 * </ul>
 *
 * <p><b>The system prompt</b> (panto's seed-fresh and reconcile-on-resume, done through the agent): the configured
 * {@link AgentConfig#systemPrompt()} is persisted as a {@link SystemMode#PROMPT} system message when the agent is
 * created on a fresh conversation, so a new session's first entry is its system prompt. When the agent adopts a
 * conversation whose latest system prompt differs from the configured one, the configured prompt is appended and
 * used from then on (the log says what the model was told, and from when); when it is the same, nothing is written.
 * A conversation that ends in a dangling prompt defers that write until the prompt is resolved: before an edited
 * prompt, or right after the dangling prompt when it is sent as it is. With no configured prompt, the logged one is
 * used.
 *
 * <p><b>Resume</b> is the embedder's explicit choice: open the store, {@link AgentSession#loadConversation load} the
 * conversation, hand it to the constructor (or call {@link #resume}). A dangling user prompt comes back separately
 * ({@link #danglingPrompt()}) and is never sent automatically: {@link #sendDanglingPrompt()} sends it as it is
 * (without writing it again), {@link #editDanglingPrompt} writes an edited prompt as its sibling (a branch). Tool
 * calls that a crash left without results are run when the next step starts.
 *
 * <p><b>Busy prompts</b> (Planck): {@link #prompt} while a step runs queues the prompt unpersisted, with the entry id
 * it will be stored under; it can be edited or cancelled until the next step starts, which flushes the queue with
 * {@link dev.parley.core.log.MessageLog#flushUnpersisted} and reloads the conversation from the store (the source of
 * truth). A flush whose outcome is unknown (the log failed) is sent again, as it was, by the next one: a prompt the
 * log already holds is recognised by its id and never written twice. While a dangling prompt waits (a reload after a
 * failed step can find one), the queue is not flushed: the user sends or edits the dangling prompt first.
 *
 * <p><b>Thread-safety</b>: one step runs at a time; {@link #prompt}, {@link #editQueued}, {@link #cancelQueued} and
 * the read methods may be called from other threads while it runs. Other mutating methods throw
 * {@link IllegalStateException} while a step runs.
 */
public final class Agent {
    /** Metadata key marking a system message as the system prompt ({@link SystemMode#PROMPT}). */
    public static final String SYSTEM_MODE_KEY = "parley.systemMode";

    /**
     * Whether a message is a system prompt: a system message marked with {@link #SYSTEM_MODE_KEY}.
     *
     * @param message the message to test
     * @return true if its role is system and its metadata holds {@link #SYSTEM_MODE_KEY}, whatever the value
     */
    public static boolean isSystemPrompt(Message message) {
        return message.role().equals(Role.SYSTEM) && message.metadata().containsKey(SYSTEM_MODE_KEY);
    }
    static final String NO_RESULT = "No result provided";

    private final AgentConfig config;
    private final ModelProvider provider;
    private final AgentSession store;
    private final Clock clock;
    private final Object lock = new Object();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final IdGenerator ids;
    /** Prompts queued while a step ran, by the entry id they will be stored under. */
    private final Map<EntryId, Message> queue = new LinkedHashMap<>();
    /** The batch of a flush that failed: the log may hold it, so the next flush sends it again unchanged. */
    private List<NewEntry> inFlight = List.of();

    private List<ConversationItem> conversation = new ArrayList<>();
    private @Nullable String systemPrompt;
    /** The configured prompt the log does not say yet: written before the next entry once no dangling prompt waits. */
    private @Nullable String pendingPrompt;
    private @Nullable ConversationItem dangling;
    /** The last entry of the loaded path: where the dangling prompt's reply continues from. */
    private @Nullable EntryId resumeLeaf;
    private List<Repair> repairs = List.of();

    /**
     * Creates an agent.
     *
     * @param config provider and model names, system prompt, tools
     * @param provider the model provider
     * @param store where the conversation persists (on the log of a {@code null:} store to opt out)
     * @param adopt a loaded conversation to continue (resume), or null for a fresh one. The agent continues where it
     *     ends: {@code store} is moved there with {@link AgentSession#continueFrom} (reading a conversation moves
     *     nothing), so the next entry is a child of its last entry, or a sibling of its dangling prompt
     * @param clock stamps the messages the agent creates
     * @throws dev.parley.core.InvalidInputException if {@code adopt} is a conversation of another session
     * @throws dev.parley.core.UnavailableException if writing the configured system prompt failed (see the class
     *     comment); nothing was written
     */
    public Agent(AgentConfig config, ModelProvider provider, AgentSession store, @Nullable LoadedConversation adopt,
                 Clock clock) {
        this(config, provider, store, adopt, clock, IdGenerator.uuidV7(clock, new java.security.SecureRandom()));
    }

    /**
     * Creates an agent that mints the entry ids of queued prompts with {@code ids}; otherwise as
     * {@link #Agent(AgentConfig, ModelProvider, AgentSession, LoadedConversation, Clock)}.
     *
     * @param config provider and model names, system prompt, tools
     * @param provider the model provider
     * @param store where the conversation persists (on the log of a {@code null:} store to opt out)
     * @param adopt a loaded conversation to continue (resume), or null for a fresh one
     * @param clock stamps the messages the agent creates
     * @param ids mints the entry ids of prompts queued while a step runs
     * @throws NullPointerException if an argument other than {@code adopt} is null
     * @throws dev.parley.core.InvalidInputException if {@code adopt} is a conversation of another session
     * @throws dev.parley.core.UnavailableException if writing the configured system prompt failed (see the class
     *     comment); nothing was written
     */
    public Agent(AgentConfig config, ModelProvider provider, AgentSession store, @Nullable LoadedConversation adopt,
                 Clock clock, IdGenerator ids) {
        this.ids = Objects.requireNonNull(ids, "ids");
        this.config = Objects.requireNonNull(config, "config");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        String logged = null;
        if (adopt != null) {
            store.continueFrom(adopt);
            logged = adopt(adopt);
        }
        String configured = config.systemPrompt();
        if (configured != null) {
            systemPrompt = configured;
            pendingPrompt = configured.equals(logged) ? null : configured;
            seedPendingPrompt();
        }
    }

    /**
     * Loads the store's conversation as {@link #resumeOptions()} says and creates an agent that continues it: the
     * session handle continues from where the conversation ends ({@link AgentSession#continueFrom}), and the
     * configured system prompt is reconciled with the logged one (see the class comment).
     *
     * @param config provider and model names, system prompt, tools
     * @param provider the model provider
     * @param store the session handle to load from and write to
     * @param clock stamps the messages the agent creates
     * @return the agent, its conversation loaded and its dangling prompt, if any, waiting in
     *     {@link #danglingPrompt()}
     * @throws dev.parley.core.CorruptRecordException if a stored entry cannot be decoded
     * @throws dev.parley.core.UnavailableException if the log failed
     */
    public static Agent resume(AgentConfig config, ModelProvider provider, AgentSession store, Clock clock) {
        return new Agent(config, provider, store, store.loadConversation(resumeOptions()), clock);
    }

    /**
     * How {@link #resume} and reloads read the log: aborted and failed replies dropped, user prompts left next to
     * each other merged, and tool calls without results kept — the next step runs them.
     *
     * @return options with {@link dev.parley.core.conversation.OrphanPolicy#KEEP}, the agent's active leaf and
     *     turns repaired
     */
    public static ConversationOptions resumeOptions() {
        return new ConversationOptions(dev.parley.core.conversation.OrphanPolicy.KEEP, null, true);
    }

    // ---- the conversation ----

    /**
     * The session the agent writes to.
     *
     * @return the session of the agent's {@link AgentSession}
     */
    public SessionId sessionId() {
        return store.sessionId();
    }

    /**
     * The conversation's messages, in order (a copy).
     *
     * @return the messages, system messages included and a dangling prompt not; unmodifiable
     */
    public List<Message> messages() {
        synchronized (lock) {
            return conversation.stream().map(ConversationItem::message).toList();
        }
    }

    /**
     * The conversation with the entry each message was persisted as (a copy).
     *
     * @return the items, in order; unmodifiable
     */
    public List<ConversationItem> conversation() {
        synchronized (lock) {
            return List.copyOf(conversation);
        }
    }

    /**
     * The repairs the last load made to the logged messages (see {@link Repair}).
     *
     * @return the repairs; empty when the last load made none, or no conversation was loaded
     */
    public List<Repair> repairs() {
        synchronized (lock) {
            return repairs;
        }
    }

    /**
     * The current system prompt, or null.
     *
     * @return the text of the system prompt in force, or null when there is none
     */
    public @Nullable String systemPrompt() {
        synchronized (lock) {
            return systemPrompt;
        }
    }

    /**
     * The trailing user prompt that had no reply when the conversation was loaded, until sent or edited.
     *
     * @return the prompt, or empty when there is none
     */
    public Optional<Message> danglingPrompt() {
        synchronized (lock) {
            return dangling == null ? Optional.empty() : Optional.of(dangling.message());
        }
    }

    // ---- writing ----

    /**
     * Adds a user prompt to the conversation and persists it, stamped with the configured provider and model,
     * before any provider call.
     *
     * @param text the prompt's text
     * @return the stored entry ({@code null:} answers with the entry it would have stored, and forgets it)
     * @throws IllegalStateException if a step is running (use {@link #prompt}) or a dangling prompt waits
     */
    public Optional<Entry> submitUserMessage(String text) {
        requireIdle();
        requireNoDangling();
        seedPendingPrompt();
        return commit(userMessage(text), Receiver.NONE);
    }

    private Message userMessage(String text) {
        return Message.builder(Role.USER).plainText(text).provider(config.provider()).model(config.model())
                .createdAt(clock.instant()).build();
    }

    /**
     * Adds a system message and persists it.
     *
     * @param text the message's text
     * @param mode {@link SystemMode#PROMPT} replaces the system prompt; {@link SystemMode#NOTE} adds a note in place
     * @return the stored entry, as {@link #submitUserMessage} returns it
     * @throws IllegalStateException if a step is running
     */
    public Optional<Entry> addSystemMessage(String text, SystemMode mode) {
        requireIdle();
        Message.Builder b = Message.builder(Role.SYSTEM).plainText(text).createdAt(clock.instant());
        if (mode == SystemMode.PROMPT) {
            b.putMetadata(SYSTEM_MODE_KEY, RawJson.of("\"prompt\""));
        }
        Optional<Entry> entry = commit(b.build(), Receiver.NONE);
        if (mode == SystemMode.PROMPT) {
            synchronized (lock) {
                systemPrompt = text;
                pendingPrompt = null; // superseded: the log now says what the model is told
            }
        }
        return entry;
    }

    /** Writes the configured system prompt the log does not say yet, unless a dangling prompt waits. */
    private void seedPendingPrompt() {
        String text;
        synchronized (lock) {
            if (pendingPrompt == null || dangling != null) {
                return;
            }
            text = pendingPrompt;
        }
        addSystemMessage(text, SystemMode.PROMPT);
    }

    /**
     * A prompt from the user: submitted and persisted at once when the agent is idle; queued, unpersisted, while a
     * step runs.
     *
     * @param text the prompt's text
     * @return the queued prompt's handle (the id its entry will be stored under), or empty when it was submitted at
     *     once
     * @throws IllegalStateException when submitted at once, as {@link #submitUserMessage} throws it (a dangling
     *     prompt waits)
     */
    public Optional<QueuedPrompt> prompt(String text) {
        Objects.requireNonNull(text, "text");
        synchronized (lock) {
            if (busy.get()) {
                EntryId id = ids.newEntryId();
                queue.put(id, userMessage(text));
                return Optional.of(new QueuedPrompt(id, text));
            }
        }
        submitUserMessage(text);
        return Optional.empty();
    }

    /**
     * The prompts queued and not yet sent, in order (a flush that failed has sent its prompts).
     *
     * @return the prompts with their current text, in the order they were queued (a copy); empty when none waits
     */
    public List<QueuedPrompt> queued() {
        synchronized (lock) {
            List<QueuedPrompt> out = new ArrayList<>();
            queue.forEach((id, message) -> out.add(new QueuedPrompt(id, message.text())));
            return out;
        }
    }

    /**
     * Replaces the text of a queued prompt; it keeps its id and the time it was queued.
     *
     * @param id the prompt's handle, as {@link #prompt} returned it
     * @param text the new text
     * @throws InvalidInputException if the prompt was already sent (or cancelled)
     */
    public void editQueued(EntryId id, String text) {
        synchronized (lock) {
            Message queued = queue.get(id);
            if (queued == null) {
                throw new InvalidInputException("queued prompt " + id + " was already sent or cancelled");
            }
            queue.put(id, queued.toBuilder().plainText(Objects.requireNonNull(text, "text")).build());
        }
    }

    /**
     * Cancels a queued prompt: it is taken off the queue and never sent.
     *
     * @param id the prompt's handle, as {@link #prompt} returned it
     * @throws InvalidInputException if the prompt was already sent (or cancelled)
     */
    public void cancelQueued(EntryId id) {
        synchronized (lock) {
            if (queue.remove(id) == null) {
                throw new InvalidInputException("queued prompt " + id + " was already sent or cancelled");
            }
        }
    }

    /**
     * Persists the queued prompts as one atomic batch under the ids they were given when queued (Planck's
     * {@code flush_unpersisted}), after the batch of an earlier flush that failed, and continues from the last of
     * them. Called when a step starts. When the log holds the prompts, the conversation is reloaded from it (the
     * source of truth); on a log that keeps nothing ({@code null:}) they join the conversation as sent.
     *
     * @return {@link FlushResult#FLUSHED} if the log wrote anything now; {@link FlushResult#NOOP} if there was
     *     nothing to flush, or the log already held every prompt (the answer to an earlier flush was lost)
     * @throws dev.parley.core.UnavailableException if the log failed; the batch may or may not be stored, and the
     *     next flush sends it again unchanged (it is no longer editable)
     * @throws IllegalStateException if a step is running, or a dangling prompt waits (a reload found the log ending
     *     in a prompt that never got a reply): nothing is written and the queue is kept until the dangling prompt is
     *     sent or edited
     */
    public FlushResult flushQueued() {
        requireIdle();
        return doFlush();
    }

    private FlushResult doFlush() {
        List<NewEntry> batch;
        synchronized (lock) {
            if (queue.isEmpty() && inFlight.isEmpty()) {
                return FlushResult.NOOP;
            }
            if (dangling != null) {
                // Sent here only when it is the last prompt of the failed flush that this one sends again (the log
                // held it and a reload found it unanswered): the user sent it already. Any other dangling prompt is
                // the user's to send or edit, and the queue waits for that choice.
                if (!lastInFlight(dangling)) {
                    throw danglingPromptWaits();
                }
                doSendDangling();
            }
        }
        seedPendingPrompt();
        synchronized (lock) {
            batch = new ArrayList<>(inFlight);
            EntryId parent = batch.isEmpty() ? store.leaf() : batch.get(batch.size() - 1).id();
            for (Map.Entry<EntryId, Message> queued : queue.entrySet()) {
                batch.add(NewEntry.of(queued.getKey(), parent, queued.getValue().createdAt(), queued.getValue()));
                parent = queued.getKey();
            }
            queue.clear();
            inFlight = List.copyOf(batch);
        }
        FlushResult result = store.log().flushUnpersisted(store.sessionId(), store.agent(), batch);
        EntryId last = batch.get(batch.size() - 1).id();
        LoadedConversation loaded = store.loadConversation(resumeOptions());
        boolean kept = last.equals(loaded.leaf());
        if (kept) {
            store.moveLeaf(last);
            adopt(loaded);
        }
        synchronized (lock) {
            inFlight = List.of();
            if (kept) {
                // The flushed prompts end the log: they are this turn's prompt, not a dangling one.
                if (dangling != null) {
                    conversation.add(dangling);
                    dangling = null;
                }
            } else {
                // A log that keeps nothing (null:): memory is all there is. The handle's leaf is not moved (moving
                // checks the log, which holds nothing), and the null log checks no parent.
                for (NewEntry e : batch) {
                    conversation.add(new ConversationItem(e.id(), (Message) e.payload()));
                }
            }
        }
        return result;
    }

    /**
     * Sends the dangling prompt as it is: it joins the conversation without being written again. A configured system
     * prompt the log does not say yet is written right after it.
     *
     * @throws IllegalStateException if a step is running or there is no dangling prompt
     */
    public void sendDanglingPrompt() {
        requireIdle();
        synchronized (lock) {
            if (dangling == null) {
                throw new IllegalStateException("there is no dangling prompt");
            }
            doSendDangling();
        }
        seedPendingPrompt();
    }

    private void doSendDangling() {
        if (resumeLeaf != null) {
            store.moveLeaf(resumeLeaf);
        }
        conversation.add(dangling);
        dangling = null;
    }

    /**
     * Replaces the dangling prompt by an edited one, written as its sibling in the entry tree (a branch); the
     * conversation follows the new prompt and the old one stays in the log.
     *
     * @param text the edited prompt's text
     * @return the stored entry of the edited prompt, as {@link #submitUserMessage} returns it
     * @throws IllegalStateException if a step is running or there is no dangling prompt
     */
    public Optional<Entry> editDanglingPrompt(String text) {
        requireIdle();
        synchronized (lock) {
            if (dangling == null) {
                throw new IllegalStateException("there is no dangling prompt");
            }
            dangling = null;
        }
        return submitUserMessage(text);
    }

    /**
     * Branches: the next prompt continues from {@code parent} (a sibling of its existing children); the abandoned
     * branch stays in the log and is listed by {@code parley tree}. The system prompt in force is written first when
     * the new branch's path does not say it.
     *
     * @param parent the entry to continue from, or null to start a new root
     * @param text the prompt
     * @return the stored entry of the prompt, as {@link #submitUserMessage} returns it
     * @throws IllegalStateException if a step is running
     * @throws dev.parley.core.NotFoundException if {@code parent} is not an entry of the session; nothing was
     *     written
     */
    public Optional<Entry> branchFrom(@Nullable EntryId parent, String text) {
        requireIdle();
        store.moveLeaf(parent);
        LoadedConversation branch = parent == null ? LoadedConversation.empty(store.sessionId())
                : store.loadConversation(resumeOptions().withLeaf(parent));
        String logged = loggedPrompt(branch);
        synchronized (lock) {
            dangling = null;
            conversation = new ArrayList<>(branch.items());
            // The prompt in force goes on the new branch too, if its path does not say it.
            pendingPrompt = systemPrompt == null || systemPrompt.equals(logged) ? null : systemPrompt;
        }
        return submitUserMessage(text);
    }

    /**
     * Rewinds: removes every entry after {@code keep} from the session, across all agents (destructive; Planck's
     * {@code truncate_after}), and reloads the conversation.
     *
     * @param keep the entry to keep as the session's last one
     * @throws IllegalStateException if a step is running
     * @throws dev.parley.core.NotFoundException if the session has no such entry
     */
    public void rewindTo(EntryId keep) {
        requireIdle();
        store.truncateAfter(keep);
        load(); // not reload(): its check could fail after the truncation if a step started meanwhile
    }

    /**
     * Reloads the conversation from the store (the store is the source of truth) and continues where it ends: the
     * next entry is a child of its last entry, or a sibling of its dangling prompt.
     *
     * @throws IllegalStateException if a step is running: the step's conversation is not replaced under it
     */
    public void reload() {
        requireIdle();
        load();
    }

    private void load() {
        LoadedConversation loaded = store.loadConversation(resumeOptions());
        store.continueFrom(loaded);
        adopt(loaded);
    }

    /**
     * Takes the loaded conversation as the agent's, and the latest system prompt on its path as the prompt in force
     * when it has one.
     *
     * @return the latest system prompt on the loaded path, or null
     */
    private @Nullable String adopt(LoadedConversation loaded) {
        String logged = loggedPrompt(loaded);
        synchronized (lock) {
            conversation = new ArrayList<>(loaded.items());
            repairs = loaded.repairs();
            dangling = loaded.danglingUser() == null ? null
                    : new ConversationItem(loaded.danglingUserEntry(), loaded.danglingUser());
            resumeLeaf = loaded.leaf();
            if (logged != null) {
                systemPrompt = logged;
            }
        }
        return logged;
    }

    /** The latest system prompt on the loaded path: in the conversation, or before a compaction that cut it out. */
    private @Nullable String loggedPrompt(LoadedConversation loaded) {
        String found = null;
        for (ConversationItem item : loaded.items()) {
            if (isSystemPrompt(item.message())) {
                found = item.message().text();
            }
        }
        if (found != null || loaded.path().isEmpty()) {
            return found;
        }
        Map<EntryId, Message> messages = new java.util.HashMap<>();
        for (Entry e : store.log().load(store.sessionId(), null)) {
            if (e.message() != null && isSystemPrompt(e.message())) {
                messages.put(e.id(), e.message());
            }
        }
        for (int i = loaded.path().size() - 1; i >= 0; i--) {
            Message m = messages.get(loaded.path().get(i));
            if (m != null) {
                return m.text();
            }
        }
        return null;
    }

    // ---- the step ----

    /**
     * Runs the model/tool loop until the model answers without calling a tool (or {@link AgentConfig#maxSteps()}
     * model calls were made). Queued prompts are flushed first; tool calls a crash left without results are run
     * first. Every message is persisted as it is committed.
     *
     * @param receiver receives the streamed deltas, each tool call before it runs and each committed message;
     *     {@link Receiver#NONE} for none
     * @return how many model calls and tool calls the step made, its last reply, and whether it stopped at
     *     {@link AgentConfig#maxSteps()}
     * @throws ProviderException if the provider fails; everything committed before stays in the log and the
     *     conversation
     * @throws IllegalStateException if a step is already running, or a dangling prompt was neither sent nor edited
     *     (nothing is written, queued prompts stay queued);
     *     or if the thread was interrupted while a tool ran, with the interrupt status kept: that call has no result
     *     stored and runs again on resume
     */
    public StepResult runStep(Receiver receiver) {
        Objects.requireNonNull(receiver, "receiver");
        if (!busy.compareAndSet(false, true)) {
            throw new IllegalStateException("a step is already running");
        }
        try {
            doFlush();
            requireNoDangling();
            int toolCalls = runPendingToolCalls(receiver);
            Message reply = null;
            for (int call = 1; call <= config.maxSteps(); call++) {
                Message answer = provider.complete(request(), receiver);
                reply = stamp(answer);
                commit(reply, receiver);
                if (reply.toolCalls().isEmpty()) {
                    return new StepResult(call, toolCalls, reply, false);
                }
                for (ContentBlock.ToolCall c : reply.toolCalls()) {
                    runTool(c, receiver);
                    toolCalls++;
                }
            }
            return new StepResult(config.maxSteps(), toolCalls, reply, true);
        } finally {
            busy.set(false);
        }
    }

    private ModelRequest request() {
        synchronized (lock) {
            List<Message> messages = new ArrayList<>();
            for (ConversationItem item : conversation) {
                Message m = item.message();
                if (isSystemPrompt(m)) {
                    continue;
                }
                messages.add(m);
            }
            List<ToolSpec> tools = config.tools().stream().map(Tool::spec).toList();
            return new ModelRequest(config.model(), systemPrompt, answerEveryCall(messages), tools);
        }
    }

    /**
     * The messages with a synthetic error result for every tool call that has none (a request-time repair, never
     * persisted): providers reject a call without a result.
     */
    static List<Message> answerEveryCall(List<Message> messages) {
        Set<String> answered = new HashSet<>();
        for (Message m : messages) {
            m.toolResults().forEach(r -> answered.add(r.callId()));
        }
        List<Message> out = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            out.add(m);
            List<ContentBlock> missing = new ArrayList<>();
            for (ContentBlock.ToolCall c : m.toolCalls()) {
                if (c.id() != null && !answered.contains(c.id())) {
                    missing.add(ContentBlock.ToolResult.text(c.id(), c.name(), NO_RESULT, true));
                }
            }
            if (!missing.isEmpty()) {
                while (i + 1 < messages.size() && messages.get(i + 1).role().equals(Role.TOOL)) {
                    out.add(messages.get(++i));
                }
                out.add(Message.builder(Role.TOOL).content(missing).build());
            }
        }
        return out;
    }

    private Message stamp(Message answer) {
        Message.Builder b = answer.toBuilder();
        if (answer.provider() == null) {
            b.provider(config.provider());
        }
        if (answer.model() == null) {
            b.model(config.model());
        }
        if (answer.createdAt() == null) {
            b.createdAt(clock.instant());
        }
        return b.build();
    }

    /** Runs the tool calls of the last assistant message that have no result yet (a crash interrupted them). */
    private int runPendingToolCalls(Receiver receiver) {
        List<ContentBlock.ToolCall> pending = new ArrayList<>();
        synchronized (lock) {
            Set<String> answered = new HashSet<>();
            for (int i = conversation.size() - 1; i >= 0; i--) {
                Message m = conversation.get(i).message();
                if (m.role().equals(Role.TOOL)) {
                    m.toolResults().forEach(r -> answered.add(r.callId()));
                    continue;
                }
                if (m.role().equals(Role.ASSISTANT)) {
                    for (ContentBlock.ToolCall c : m.toolCalls()) {
                        if (c.id() == null || !answered.contains(c.id())) {
                            pending.add(c);
                        }
                    }
                }
                break;
            }
        }
        for (ContentBlock.ToolCall c : pending) {
            runTool(c, receiver);
        }
        return pending.size();
    }

    private void runTool(ContentBlock.ToolCall call, Receiver receiver) {
        receiver.onToolCall(call);
        Tool.Output output;
        Tool tool = config.tools().stream().filter(t -> t.spec().name().equals(call.name())).findFirst().orElse(null);
        if (tool == null) {
            output = Tool.Output.error("unknown tool '" + call.name() + "'");
        } else {
            try {
                output = tool.call(call.arguments());
            } catch (Exception e) {
                if (e instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                    // Interrupted (also inside: an agent the tool runs, as a delegate does, ends its step this way):
                    // no result is stored, so the call stays unanswered and runs again on resume, as for a crash.
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while running tool " + call.name(), e);
                }
                output = Tool.Output.error(call.name() + " failed: " + e);
            }
        }
        String id = call.id() != null ? call.id() : "call-without-id";
        Message result = Message.builder(Role.TOOL).add(ContentBlock.ToolResult.text(id, call.name(), output.text(),
                output.isError())).createdAt(clock.instant()).build();
        commit(result, receiver);
    }

    /**
     * Persists a message and adds it to the conversation; durable before it is visible. An assistant message and its
     * usage are one atomic write: a reply is never stored without its tokens, nor counted without being stored.
     */
    private Optional<Entry> commit(Message message, Receiver receiver) {
        Usage usage = message.role().equals(Role.ASSISTANT) && message.usage() != null ? message.usage() : Usage.ZERO;
        List<Entry> stored = store.appendMessages(List.of(message), usage);
        Entry entry = stored.isEmpty() ? null : stored.get(0);
        synchronized (lock) {
            conversation.add(new ConversationItem(entry == null ? null : entry.id(), message));
        }
        if (entry != null) {
            receiver.onCommitted(message, entry);
        }
        return Optional.ofNullable(entry);
    }

    // ---- compaction ----

    /**
     * What {@link #compact} did.
     *
     * @param entry the compaction entry, or null when there was nothing to compact
     * @param summary the summary the conversation now starts with, or null when nothing was compacted
     * @param compactedMessages how many messages the summary replaced
     */
    public record Compaction(@Nullable Entry entry, @Nullable String summary, int compactedMessages) {}

    /**
     * Compacts the conversation: everything but the last {@code keepLast} messages is replaced by a summary (asked of
     * the provider with {@code instructions}, unless {@code summary} is given). The result is persisted as a
     * compaction entry; every earlier entry stays in the log, and a resumed conversation starts from the summary.
     * The cut never separates tool results from their call.
     *
     * @param keepLast how many of the latest messages to keep, at least 0; system prompts are not counted, and the
     *     cut moves earlier rather than separate tool results from their call
     * @param summary the summary to use, or null to ask the provider for one
     * @param instructions what the provider is asked, sent as a user message after the messages to summarize; not
     *     used when {@code summary} is given
     * @return what was compacted; no entry, no summary and 0 messages when there was nothing to compact
     * @throws InvalidInputException if {@code keepLast} is negative
     * @throws IllegalStateException if a step is running
     * @throws ProviderException if the provider fails to write the summary; nothing was written
     */
    public Compaction compact(int keepLast, @Nullable String summary, String instructions) {
        requireIdle();
        if (keepLast < 0) {
            throw new InvalidInputException("keepLast must not be negative");
        }
        // System prompts are not conversation: they are neither summarized nor counted, and stay in force.
        List<ConversationItem> all;
        synchronized (lock) {
            all = new ArrayList<>(conversation);
        }
        List<ConversationItem> items = all.stream().filter(i -> !isSystemPrompt(i.message())).toList();
        int cut = Math.max(0, items.size() - keepLast);
        while (cut > 0 && cut < items.size() && items.get(cut).message().role().equals(Role.TOOL)) {
            cut--;
        }
        if (cut == 0) {
            return new Compaction(null, null, 0);
        }
        String text = summary;
        if (text == null) {
            List<Message> toSummarize = new ArrayList<>(items.subList(0, cut).stream().map(ConversationItem::message).toList());
            toSummarize.add(Message.user(instructions));
            text = provider.complete(new ModelRequest(config.model(), systemPrompt, toSummarize, List.of()), Receiver.NONE)
                    .text();
        }
        long tokensBefore = 0;
        for (ConversationItem item : items) {
            Usage u = item.message().usage();
            if (u != null) {
                tokensBefore = u.totalTokens();
            }
        }
        EntryId firstKept = cut < items.size() ? items.get(cut).entry() : null;
        List<Entry> stored = store.appendEntries(List.of(new EntryPayload.Compaction(text, firstKept,
                tokensBefore > 0 ? tokensBefore : null)));
        Entry entry = stored.isEmpty() ? null : stored.get(0);
        Message summaryMessage = Message.builder(Role.COMPACTION_SUMMARY).plainText(text).createdAt(clock.instant())
                .build();
        synchronized (lock) {
            List<ConversationItem> next = new ArrayList<>();
            next.add(new ConversationItem(entry == null ? null : entry.id(), summaryMessage));
            if (cut < items.size()) {
                next.addAll(all.subList(all.indexOf(items.get(cut)), all.size()));
            }
            conversation = next;
        }
        return new Compaction(entry, text, cut);
    }

    // ---- guards ----

    private void requireIdle() {
        if (busy.get()) {
            throw new IllegalStateException("a step is running");
        }
    }

    private void requireNoDangling() {
        synchronized (lock) {
            if (dangling != null) {
                throw danglingPromptWaits();
            }
        }
    }

    private static IllegalStateException danglingPromptWaits() {
        return new IllegalStateException("the conversation ends with a dangling prompt that never got a reply: "
                + "send it (sendDanglingPrompt) or edit it (editDanglingPrompt) first");
    }

    /** Whether {@code item} is the last prompt of the batch of a flush that failed (called holding the lock). */
    private boolean lastInFlight(ConversationItem item) {
        return !inFlight.isEmpty() && inFlight.get(inFlight.size() - 1).id().equals(item.entry());
    }
}
