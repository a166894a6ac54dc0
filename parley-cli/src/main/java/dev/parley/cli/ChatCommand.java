package dev.parley.cli;

import dev.parley.agent.Agent;
import dev.parley.agent.AgentConfig;
import dev.parley.agent.ModelProvider;
import dev.parley.agent.ModelProviders;
import dev.parley.agent.StepResult;
import dev.parley.core.AgentId;
import dev.parley.core.AlreadyExistsException;
import dev.parley.core.IdGenerator;
import dev.parley.core.InvalidInputException;
import dev.parley.core.NotFoundException;
import dev.parley.core.SessionId;
import dev.parley.core.UnavailableException;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.NewSession;
import dev.parley.core.log.SessionCatalog;
import dev.parley.core.log.SessionInfo;
import dev.parley.core.model.Message;
import dev.parley.core.store.Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code parley chat [SESSION]}: talk to a model through an {@link Agent} that persists every message. Interactive on
 * a terminal; one-shot with {@code --prompt} or a prompt on standard input. Resuming a session whose last prompt
 * never got a reply reports that prompt: on a terminal you can send it again or type a replacement; with
 * {@code --prompt} the new prompt replaces it (a branch); {@code --send-pending} sends it as it is.
 *
 * <p>Which session: none named starts a new one; {@code --continue} resumes the store's most recent one (panto's
 * {@code findMostRecentSession}, the catalog's {@link SessionCatalog#findMostRecent()}); a SESSION (id or unique
 * prefix) must name an existing session, unless {@code --new} asks to create one of that id. A session that cannot be
 * found is an error (exit 3), never silently a new session: a mistyped id must not start an empty conversation. A
 * store without a catalog ({@code null:}) keeps no sessions: a chat on it runs and stores nothing.
 *
 * <p>A session the chat starts is titled by its first prompt ({@link #titleOf}), so that the catalog and the browser
 * name it; a resumed session keeps its title, or its lack of one.
 */
@Command(name = "chat", mixinStandardHelpOptions = true, description = {"Chat with a model; every message is persisted as it happens.",
        "Without SESSION a new session is started; --continue resumes the most recent one; a SESSION that does not "
                + "exist is created only with --new.",
        "Providers: scripted (built in, echoes), openai, anthropic, ollama."})
final class ChatCommand implements Callable<Integer> {
    @ParentCommand
    ParleyCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "SESSION", description = "A session to resume (id or unique prefix); with --new, the id of the session to create.")
    String session;

    @Option(names = "--continue", description = "Resume the store's most recent session.")
    boolean continueLatest;

    @Option(names = "--new", description = "Create the session SESSION names (it must not exist yet).")
    boolean createNew;

    @Option(names = "--provider", defaultValue = "scripted", paramLabel = "NAME", description = "The model provider (default: a resumed session's own, else ${DEFAULT-VALUE}).")
    String provider;

    @Option(names = "--model", paramLabel = "M", description = "The model id (default: a resumed session's own, else the provider's default).")
    String model;

    @Option(names = "--prompt", paramLabel = "TEXT", description = "Send one prompt and exit.")
    String prompt;

    @Option(names = "--agent", defaultValue = "main", paramLabel = "AGENT", description = "The agent id to chat as (default ${DEFAULT-VALUE}).")
    String agent;

    @Option(names = "--system", paramLabel = "TEXT", description = "The system prompt.")
    String system;

    @Option(names = "--send-pending", description = "Send the dangling prompt of a resumed session as it is.")
    boolean sendPending;

    /** Whether the session's title has been seen to: it is given at most once, before the first prompt. */
    private boolean titled;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (prompt != null && prompt.isBlank()) {
            throw new InvalidInputException("--prompt needs some text: an empty prompt is not sent");
        }
        boolean chosenProvider = spec.commandLine().getParseResult().hasMatchedOption("--provider");
        // A provider named on the command line first: an unknown one or a missing key fails before any session is
        // named or created.
        ModelProvider modelProvider = chosenProvider ? ModelProviders.create(provider, modelId(), root.environment)
                : null;
        Store store = root.store();
        boolean terminal = System.console() != null && prompt == null;
        // An interactive chat names its session in the banner; otherwise the choice is said once, on standard error.
        long fellBackBefore = root.fallbacks();
        SessionId id = chooseSession(store, terminal ? null : err);
        Clock clock = Clock.systemUTC();
        AgentSession agentSession = new AgentSession(store.log(), id, new AgentId(agent), IdGenerator.uuidV7(), clock);
        if (modelProvider == null) {
            modelProvider = resumedProvider(agentSession);
        }
        String modelId = modelId();
        Agent chat = Agent.resume(AgentConfig.of(provider, modelId, system), modelProvider, agentSession, clock);
        if (!startsASession()) {
            refuseResumingOnTheFallback(id, fellBackBefore); // the lookup or the history load fell back
        }
        ConsoleReceiver receiver = new ConsoleReceiver(out, "");

        Message dangling = chat.danglingPrompt().orElse(null);
        if (dangling != null) {
            err.println("the last prompt of session " + id + " never got a reply (dangling prompt):");
            err.println("  " + Terminal.safe(dangling.text()).replace("\n", "\n  "));
            err.flush();
            if (sendPending) {
                chat.sendDanglingPrompt();
                step(chat, receiver);
                if (prompt == null && !terminal) {
                    return 0; // nothing more to send: standard input is not read
                }
            } else if (prompt != null) {
                err.println("(replaced by --prompt: the new prompt goes on a branch beside it; the old one stays in the"
                        + " tree, see parley tree " + id + ")");
                err.flush();
                chat.editDanglingPrompt(prompt);
                step(chat, receiver);
                return 0;
            } else if (terminal) {
                String answer = readLine(out, "send it again [Enter], or type a replacement: ");
                if (answer == null) {
                    return 0;
                }
                if (answer.isBlank()) {
                    chat.sendDanglingPrompt();
                } else {
                    chat.editDanglingPrompt(answer);
                }
                step(chat, receiver);
            } else {
                String piped = readAll();
                if (piped.isBlank()) {
                    err.println("(not sent: run again with --send-pending to send it, or --prompt TEXT to replace it)");
                    return 0;
                }
                err.println("(replaced by standard input: the new prompt goes on a branch beside it; the old one stays in"
                        + " the tree, see parley tree " + id + ")");
                err.flush();
                chat.editDanglingPrompt(piped.strip());
                step(chat, receiver);
                return 0;
            }
        }
        if (dangling == null && sendPending) {
            if (prompt == null && !terminal) {
                throw new InvalidInputException("--send-pending: session " + id + " has no dangling prompt, so"
                        + " nothing was sent");
            }
            err.println("(session " + id + " has no dangling prompt: --send-pending sends nothing)");
            err.flush();
        }
        if (prompt != null) {
            submit(store, id, chat, prompt);
            step(chat, receiver);
            return 0;
        }
        if (!terminal) {
            String piped = readAll();
            if (piped.isBlank()) {
                throw new InvalidInputException("no prompt: standard input was empty, so nothing was sent"
                        + (startsASession() ? " and session " + id + " was not created" : "")
                        + " (pipe a prompt in, or give --prompt TEXT)");
            }
            submit(store, id, chat, piped.strip());
            step(chat, receiver);
            return 0;
        }
        out.println("session " + id + " · " + Terminal.line(provider + "/" + modelId) + " · /exit to leave, /help");
        while (true) {
            String line = readLine(out, "you> ");
            if (line == null || line.strip().equals("/exit") || line.strip().equals("/quit")) {
                return 0;
            }
            if (line.isBlank()) {
                continue;
            }
            if (line.strip().equals("/help")) {
                out.println("/exit or /quit (or end of input) leaves; every other line is sent to the model");
                continue;
            }
            submit(store, id, chat, line);
            step(chat, receiver);
        }
    }

    /**
     * Submits a new prompt. Before the first prompt of a session this chat starts ({@link #startsASession}), the
     * session is created, titled by the prompt; if that prompt is then refused (too large, the store unavailable), the
     * session is deleted again while it holds nothing, so that a failed start leaves no session behind.
     *
     * @throws AlreadyExistsException if {@code --new} named a session that another writer created since it was checked
     */
    private void submit(Store store, SessionId id, Agent chat, String text) {
        Optional<SessionCatalog> catalog = titled ? Optional.empty() : store.catalog().filter(c -> startsASession());
        titled = true;
        boolean created = false;
        if (catalog.isPresent()) {
            try {
                catalog.get().create(new NewSession(id, titleOf(text), null, Map.of()));
                created = true;
            } catch (AlreadyExistsException e) {
                if (createNew) { // asked for a new session: another's must not be written into
                    throw new AlreadyExistsException("session " + id + " was created by another writer meanwhile in "
                            + root.storeLabel() + "; leave out --new to resume it", e);
                }
            }
        }
        try {
            chat.submitUserMessage(text);
        } catch (RuntimeException e) {
            if (created) {
                forgetEmpty(catalog.get(), id, e);
            }
            throw e;
        }
    }

    /** Whether this chat starts a new session, rather than resuming one: no SESSION, or {@code --new}. */
    private boolean startsASession() {
        return !continueLatest && (session == null || createNew);
    }

    /** Deletes a session this chat created whose first prompt was refused, if it is still empty. */
    private static void forgetEmpty(SessionCatalog catalog, SessionId id, RuntimeException refusal) {
        try {
            if (catalog.find(id).map(info -> info.entryCount() == 0).orElse(false)) {
                catalog.delete(id);
            }
        } catch (RuntimeException e) {
            refusal.addSuppressed(e); // the refusal is the answer; the empty session stays
        }
    }

    /** The most characters of a title taken from a prompt. */
    static final int TITLE_LENGTH = 80;

    /**
     * A session's title taken from its first prompt: the prompt's first line that is not blank, its runs of white
     * space made single spaces, cut to {@value #TITLE_LENGTH} characters (code points) with an ellipsis.
     */
    static String titleOf(String prompt) {
        String line = prompt.strip().lines().filter(l -> !l.isBlank()).findFirst().orElse("").strip()
                .replaceAll("(?U)\\s+", " ");
        if (line.codePointCount(0, line.length()) <= TITLE_LENGTH) {
            return line;
        }
        return line.substring(0, line.offsetByCodePoints(0, TITLE_LENGTH - 1)).stripTrailing() + "…";
    }

    private void step(Agent chat, ConsoleReceiver receiver) {
        StepResult result = chat.runStep(receiver);
        receiver.endLine();
        if (result.stoppedAtMaxSteps()) {
            spec.commandLine().getErr().println("(stopped after " + result.modelCalls() + " model calls)");
        }
    }

    /**
     * The session to chat in (see the class comment). Nothing is created here: a new session is created with its
     * first prompt ({@link #submit}).
     *
     * @throws InvalidInputException if --continue is combined with SESSION or --new, or SESSION is not a valid id
     * @throws NotFoundException if there is no session to continue, or SESSION names none and --new was not given
     * @throws AlreadyExistsException if --new names a session that exists
     */
    private SessionId chooseSession(Store store, @Nullable PrintWriter announce) {
        if (continueLatest && (createNew || session != null)) {
            throw new InvalidInputException("--continue resumes the most recent session: give no SESSION and no --new");
        }
        Optional<SessionCatalog> catalog = store.catalog();
        SessionId chosen;
        if (continueLatest) {
            chosen = catalog.flatMap(SessionCatalog::findMostRecent).map(SessionInfo::id).orElseThrow(() ->
                    new NotFoundException("no session to continue in " + root.storeLabel()
                            + (catalog.isEmpty() ? " (it keeps no sessions)" : "") + "; run parley chat to start one"));
            say(announce, "session " + chosen);
        } else if (session == null) {
            chosen = IdGenerator.uuidV7().newSessionId();
            say(announce, "session " + chosen);
        } else if (createNew) {
            chosen = new SessionId(session);
            long fellBack = root.fallbacks();
            if (catalog.isPresent() && catalog.get().find(chosen).isPresent()) {
                throw new AlreadyExistsException("session " + chosen + " already exists in " + root.storeLabel()
                        + "; leave out --new to resume it");
            }
            if (root.fallbacks() > fellBack) { // the server may hold it: a copy started here would fork it
                throw root.noSession(session, fellBack);
            }
            say(announce, "new session " + chosen);
        } else if (catalog.isEmpty()) {
            throw new NotFoundException("no session " + session + " in " + root.storeLabel()
                    + " (it keeps no sessions); pass --new to create it");
        } else {
            try {
                chosen = root.resolveSession(session);
            } catch (NotFoundException e) {
                throw new NotFoundException(e.getMessage() + "; pass --new to create it", e);
            }
        }
        return chosen;
    }

    /**
     * Refuses to resume a session read through a {@code remote:} store's fallback (a call since {@code fellBackBefore}
     * — the lookup, or the load of its history — fell back because the server did not answer): the fallback's copy
     * may be behind the server's, so a turn added to it would fork the session, and the replay would refuse it.
     *
     * @throws UnavailableException if the lookup fell back
     */
    private void refuseResumingOnTheFallback(SessionId chosen, long fellBackBefore) {
        if (root.fallbacks() > fellBackBefore) {
            throw new UnavailableException("cannot resume session " + chosen + " while " + root.storeLabel()
                    + " does not answer: its fallback store's copy may be behind the server's, and a turn added to it"
                    + " would fork the session and be refused at replay; start a new session (parley"
                    + root.storeOption() + " chat) or resume it when the server is back (parley" + root.storeOption()
                    + " remote status)", null);
        }
    }

    private static void say(@Nullable PrintWriter announce, String line) {
        if (announce != null) {
            announce.println(line);
            announce.flush();
        }
    }

    private String modelId() {
        return model != null ? model : defaultModel(provider);
    }

    /**
     * Without {@code --provider}, a resumed session goes on with the model in force at its leaf when Parley has a
     * provider of that name (a session is never switched to another model behind the user's back); otherwise, and
     * for a new session, the default provider. {@code --model} alone changes the model, not the provider.
     *
     * @throws InvalidInputException if the session's provider cannot be set up (a missing key), naming the session's
     *     model and how to choose another
     */
    private ModelProvider resumedProvider(AgentSession session) {
        dev.parley.core.conversation.ModelRef active = session.activeModel().orElse(null);
        if (active == null || active.provider() == null || !ModelProviders.names().contains(active.provider())) {
            return ModelProviders.create(provider, modelId(), root.environment);
        }
        provider = active.provider();
        if (model == null) {
            model = active.model();
        }
        try {
            return ModelProviders.create(provider, model, root.environment);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("session " + session.sessionId() + " goes on with its model " + provider
                    + "/" + model + ", which cannot be used here: " + e.getMessage() + " (choose another with"
                    + " --provider)", e);
        }
    }

    static String defaultModel(String provider) {
        return switch (provider) {
            case "openai" -> "gpt-4o-mini";
            case "anthropic" -> "claude-sonnet-4-5";
            case "ollama" -> "llama3.2";
            default -> "echo-1";
        };
    }

    private BufferedReader stdin;

    private String readLine(PrintWriter out, String ask) throws IOException {
        out.print(ask);
        out.flush();
        if (stdin == null) {
            stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        }
        return stdin.readLine();
    }

    private static String readAll() throws IOException {
        return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
