package com.example.quickstart;

import dev.parley.agent.Agent;
import dev.parley.agent.AgentConfig;
import dev.parley.agent.ModelProviders;
import dev.parley.agent.Receiver;
import dev.parley.agent.StepResult;
import dev.parley.core.AgentId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.conversation.AgentSession;
import dev.parley.core.log.AppendResult;
import dev.parley.core.log.MessageLog;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.model.Usage;
import dev.parley.core.repository.CatalogPage;
import dev.parley.core.repository.CatalogQuery;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.store.Store;
import dev.parley.core.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * The library snippets of Parley's README, in the order the README shows them, each printing a line or two. The
 * README's code blocks are copied from between the {@code tag::}/{@code end::} markers below; {@code check-readme}
 * in this directory fails when the two differ.
 */
public final class Quickstart {
    private Quickstart() {}

    public static void main(String[] args) throws IOException {
        // tag::store[]
        String uri = "sqlite:" + Files.createTempDirectory("parley-quickstart").resolve("parley.db");
        // end::store[]
        agent(uri);
        records(uri);
        idempotentAppend(uri);
    }

    // tag::agent[]
    static void agent(String uri) {
        SessionId id = IdGenerator.uuidV7().newSessionId();
        try (Store store = Stores.open(uri)) {
            Agent agent = openAgent(store, id);
            agent.submitUserMessage("What changed since v1.2?");   // durable before the provider is called
            StepResult step = agent.runStep(Receiver.NONE);         // each reply durable as it is committed
            System.out.println("(a) the agent answered: " + step.reply().text());
        }
        try (Store store = Stores.open(uri)) {                       // what a new process does after a crash
            Agent agent = openAgent(store, id);
            System.out.println("(a) resumed " + agent.messages().size() + " messages; dangling prompt: "
                    + agent.danglingPrompt().isPresent());
        }
    }

    static Agent openAgent(Store store, SessionId id) {
        AgentSession session = new AgentSession(store.log(), id, AgentId.MAIN, IdGenerator.uuidV7(), Clock.systemUTC());
        return Agent.resume(AgentConfig.of("scripted", "echo-1", "Be brief."),
                ModelProviders.create("scripted", "echo-1", System.getenv()), session, Clock.systemUTC());
    }
    // end::agent[]

    // tag::records[]
    static void records(String uri) {
        try (Store store = Stores.open(uri + "?parley.scope=tenant-42")) {
            ChatSessionRepository sessions = store.sessions().orElseThrow();
            StoredSession s = sessions.create(ChatSession.builder("support-7", Instant.now()).name("Refund").build());
            sessions.update(s.session().toBuilder().pinned(true).build(), s.revision());   // revision 1 -> 2
            try {
                sessions.update(s.session().toBuilder().name("Stale").build(), s.revision()); // still names 1
            } catch (RevisionConflictException e) {
                System.out.println("(b) stale update rejected: expected revision " + e.expectedRevision()
                        + ", actual " + e.actualRevision());
            }
            CatalogPage page = sessions.list(new CatalogQuery(null, 50, null, false));   // unarchived, pinned first
            System.out.println("(b) catalog of scope " + store.scope() + ": " + page.items().get(0).id()
                    + " at revision " + page.items().get(0).revision() + ", next cursor " + page.nextCursor());
        }
    }
    // end::records[]

    // tag::append[]
    static void idempotentAppend(String uri) {
        try (Store store = Stores.open(uri)) {
            MessageLog log = store.log();
            SessionId session = IdGenerator.uuidV7().newSessionId();
            List<NewEntry> batch = List.of(NewEntry.of(IdGenerator.uuidV7().newEntryId(), null, Instant.now(),
                    Message.user("Hello")));
            AppendResult first = log.append(session, AgentId.MAIN, batch, Usage.of(12, 0));
            AppendResult retry = log.append(session, AgentId.MAIN, batch, Usage.of(12, 0)); // the answer was lost
            System.out.println("(c) written " + first.written() + ", then " + retry.written() + "; usage counted once: "
                    + log.loadUsage(session, AgentId.MAIN).inputTokens() + " input tokens");
        }
    }
    // end::append[]
}
