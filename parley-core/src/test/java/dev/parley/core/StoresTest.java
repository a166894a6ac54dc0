package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.conversation.AgentSession;
import dev.parley.core.model.Message;
import dev.parley.core.store.Capability;
import dev.parley.core.store.Store;
import dev.parley.core.store.StoreOptions;
import dev.parley.core.store.StoreUri;
import dev.parley.core.store.Stores;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StoresTest {
    private static final SessionId S = new SessionId("s");
    private static final AgentId A = AgentId.MAIN;

    /**
     * Found by a newcomer's trial: a remote store's bearer token ({@code parley.token=}) was printed whole in the CLI's
     * "more:" hint and in the conformance header, where passwords were masked.
     */
    @Test
    void redact_masksTokensAsWellAsPasswords() {
        String uri = "remote:http://127.0.0.1:8080?parley.token=abcdefghijklmnopqrstu&parley.timeout=5000";
        assertThat(Stores.redact(uri)).isEqualTo("remote:http://127.0.0.1:8080?parley.token=***&parley.timeout=5000");
        assertThat(Stores.redact("postgres:jdbc:postgresql://u:pw@h/db?password=pw2"))
                .isEqualTo("postgres:jdbc:postgresql://u:***@h/db?password=***");
        assertThat(Stores.redact("jsonl:/srv/token=a/b")).isEqualTo("jsonl:/srv/token=a/b"); // a path, not a parameter
        // review: API keys, and URIs quoted inside a message, were printed whole
        assertThat(Stores.redact("https://h/v1?api-key=k1&x=1")).isEqualTo("https://h/v1?api-key=***&x=1");
        assertThat(Stores.redact("call to http://me:pw@h:80/v1?apikey=k2 failed: port 8080 x@y"))
                .isEqualTo("call to http://me:***@h:80/v1?apikey=*** failed: port 8080 x@y");
        assertThat(Stores.redact("call to http://h:8080 failed: mail x@y")).isEqualTo("call to http://h:8080 failed: mail x@y");
    }

    @Test
    void open_missingBackendModule_namesTheModuleToAdd() {
        assertThatThrownBy(() -> Stores.open("jsonl:/tmp/x"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("add dev.parley:parley-files to the class path for jsonl:");
    }

    @Test
    void open_misspeltScopeParameter_isRefusedNotPassedOn() {
        for (String bad : List.of("memory:?parley_scope=t", "memory:?Parley.Scope=t", "memory:?parley.scop=t")) {
            assertThatThrownBy(() -> Stores.open(bad)).as(bad)
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("unknown store URI parameter");
        }
    }

    @Test
    void uri_parleyParameters_areTakenOutOfTheLocation() {
        StoreUri uri = StoreUri.parse("postgres:jdbc:postgresql://h/db?user=u&parley.scope=t%20a&sslmode=off");
        assertThat(uri.scheme()).isEqualTo("postgres");
        assertThat(uri.location()).isEqualTo("jdbc:postgresql://h/db?user=u&sslmode=off");
        assertThat(uri.scope()).isEqualTo("t a");
    }

    @Test
    void withScope_uriPinnedScope_bindsEverythingReachedThroughIt() {
        try (Store store = Stores.open("memory:?parley.scope=tenant-a")) {
            assertThat(store.scope()).isEqualTo("tenant-a");
            assertThat(store.withScope("tenant-a")).isSameAs(store);
            assertThatThrownBy(() -> store.withScope("tenant-b")).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("binds scope 'tenant-a'");
        }
        assertThatThrownBy(() -> Stores.open("memory:?parley.scope=a", StoreOptions.defaults().withScope("b")))
                .isInstanceOf(InvalidInputException.class);
    }

    @Test
    void withScope_otherScope_seesNothingOfThisOne() {
        try (Store store = Stores.open("memory:")) {
            new AgentSession(store.log(), S, A, IdGenerator.uuidV7(), Clock.systemUTC())
                    .appendMessages(List.of(Message.user("mine")));
            Store other = store.withScope("other");
            assertThat(other.log().load(S, null)).isEmpty();
            assertThat(other.catalog().orElseThrow().find(S)).isEmpty();
            assertThat(store.log().load(S, null)).hasSize(1);
        }
    }

    @Test
    void memory_namedStore_isSharedAcrossOpensAndAnonymousIsNot() {
        String name = "memory:t-" + UUID.randomUUID();
        try (Store first = Stores.open(name)) {
            first.log().append(S, A, List.of(dev.parley.core.model.NewEntry.of(new EntryId("e1"), null, null,
                    Message.user("kept"))));
        }
        try (Store again = Stores.open(name)) {
            assertThat(again.log().load(S, null)).hasSize(1);
            again.deleteScope();
            assertThat(again.log().load(S, null)).isEmpty();
        }
        try (Store anonymous = Stores.open("memory:")) {
            assertThat(anonymous.capabilities()).contains(Capability.SESSION_RECORDS, Capability.ARCHIVES);
            assertThat(anonymous.sessions()).isPresent();
        }
    }

    /** Regression: the null store checked parents it never stored, so an agent's second message failed. */
    @Test
    void nullStore_agentChainsMessages_acceptsAndKeepsNothing() {
        try (Store store = Stores.open("null:")) {
            AgentSession session = new AgentSession(store.log(), S, A, IdGenerator.uuidV7(), Clock.systemUTC());
            session.appendMessages(List.of(Message.user("one")));
            session.appendMessages(List.of(Message.user("two")), dev.parley.core.model.Usage.of(3, 4));
            assertThat(store.log().load(S, null)).isEmpty();
            assertThat(store.catalog()).isEmpty();
            assertThat(store.capabilities()).isEmpty();
        }
    }
}
