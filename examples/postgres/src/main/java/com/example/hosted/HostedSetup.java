package com.example.hosted;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.parley.core.AgentId;
import dev.parley.core.EntryId;
import dev.parley.core.IdGenerator;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.model.NewEntry;
import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.ChatSessionRepository;
import dev.parley.core.repository.RevisionConflictException;
import dev.parley.core.repository.StoredSession;
import dev.parley.core.repository.LeaseLostException;
import dev.parley.engine.LeaseClaim;
import dev.parley.engine.LeaseOwner;
import dev.parley.engine.SessionService;
import dev.parley.postgres.PostgresSchema;
import dev.parley.postgres.PostgresStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * A hosted product's persistence on PostgreSQL, step by step:
 * <ol>
 *   <li>a deployment step runs the migrations with its own pool;</li>
 *   <li>a replica opens the store with migration off (it only validates the schema) and binds repositories to the
 *       tenant of an authenticated request — a server-side identity, never a value the client sent;</li>
 *   <li>the replica works: a session record under a lease with a fencing token, an archive, the message log;</li>
 *   <li>the replica dies; a new one starts with a fresh pool and fresh repository instances and recovers everything,
 *       then continues where the dead one stopped: compare-and-swap guards the record, the dead replica's lease
 *       blocks others until it expires, and a write under the old fencing token fails after a takeover.</li>
 * </ol>
 * Set {@code PARLEY_POSTGRES_URL} to a JDBC URL to use your server; otherwise an embedded one is started.
 */
public final class HostedSetup {
    private HostedSetup() {}

    /** What the authentication layer hands the application: the tenant comes from a verified credential. */
    record Principal(String userId, String tenantId) {}

    /** Stands in for a verified token: in a real service this is the auth middleware's output. */
    static Principal authenticate(String bearerToken) {
        return switch (bearerToken) {
            case "token-alice" -> new Principal("alice", "tenant-acme");
            case "token-bob" -> new Principal("bob", "tenant-globex");
            default -> throw new SecurityException("unknown token");
        };
    }

    static HikariDataSource pool(String jdbcUrl, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName(name);
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    public static void main(String[] args) throws Exception {
        String url = System.getenv("PARLEY_POSTGRES_URL");
        EmbeddedPostgres embedded = null;
        if (url == null || url.isBlank()) {
            embedded = EmbeddedPostgres.builder().setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on").start();
            url = embedded.getJdbcUrl("postgres", "postgres");
            System.out.println("0. started an embedded PostgreSQL server (set PARLEY_POSTGRES_URL to use yours)");
        }
        try {
            run(url);
        } finally {
            if (embedded != null) {
                embedded.close();
            }
        }
    }

    static void run(String url) {
        // 1. The deployment step: migrations, with a pool of its own (in production, a role that may alter tables).
        try (HikariDataSource admin = pool(url, "migrations")) {
            PostgresSchema.migrate(admin);
            System.out.println("1. migrations applied: Parley schema version " + PostgresSchema.installedVersion(admin));
        }

        Principal alice = authenticate("token-alice");
        String sessionId = "support-" + Long.toString(System.currentTimeMillis(), 36);
        SessionId logSession = new SessionId(sessionId);
        AgentId agent = new AgentId("support-bot");
        LeaseOwner replicaA = new LeaseOwner("daemon", "replica-a", "worker-1", null);
        long fencingTokenA;
        long revisionBeforeCrash;

        // 2–3. Replica A: validate the schema, bind to the caller's tenant, work.
        HikariDataSource poolA = pool(url, "replica-a");
        try (PostgresStore store = PostgresStore.builder(poolA).migrate(false).scope(alice.tenantId()).build()) {
            ChatSessionRepository sessions = store.sessions().orElseThrow();
            SessionService service = new SessionService(sessions, store.archives().orElseThrow(), Clock.systemUTC(),
                    IdGenerator.uuidV7());
            service.ensure(sessionId);
            LeaseClaim claim = service.acquireLease(sessionId, replicaA);
            fencingTokenA = claim.fencingToken();
            StoredSession s = service.updateWithLease(claim, r -> r.toBuilder().name("Refund for order 1182")
                    .workspaceId("support").history(List.of(ChatMessage.of("user", "Where is my refund?"),
                            ChatMessage.of("assistant", "Checking order 1182."))).build()).orElseThrow();
            revisionBeforeCrash = s.revision();
            store.archives().orElseThrow().append(new ArchiveAppend(sessionId,
                    ArchiveRecord.draft("archive-1", "greeting", 2, Instant.now(), null),
                    List.of(ChatMessage.of("user", "Hi"), ChatMessage.of("assistant", "Hello!")),
                    "The customer greeted support."));
            store.log().append(logSession, agent, List.of(
                    NewEntry.of(new EntryId("m1"), null, Instant.now(), Message.user("Where is my refund?")),
                    NewEntry.of(new EntryId("m2"), new EntryId("m1"), Instant.now(),
                            Message.text(dev.parley.core.model.Role.ASSISTANT, "Checking order 1182."))));
            System.out.println("2. replica A (tenant " + alice.tenantId() + ") holds the lease with fencing token "
                    + fencingTokenA + "; the record is at revision " + revisionBeforeCrash
                    + "; one archive; two log entries");

            // The same session id in another tenant is another session: the scope comes from the credential, and a
            // store bound to one tenant reaches no other (its scope is pinned), so bob's request gets bob's store.
            Principal bob = authenticate("token-bob");
            boolean visible;
            try (PostgresStore bobs = PostgresStore.builder(poolA).migrate(false).closeDataSource(false)
                    .scope(bob.tenantId()).build()) {
                visible = bobs.sessions().orElseThrow().read(sessionId).isPresent();
            }
            check(!visible, "tenant " + bob.tenantId() + " must not see " + alice.tenantId() + "'s session");
            System.out.println("   tenant " + bob.tenantId() + " reading the same id sees nothing");
        }
        // 4. Replica A dies without releasing anything: its pool goes away with it.
        poolA.close();
        System.out.println("3. replica A is gone (pool closed, lease not released)");

        // Replica B: a fresh pool, fresh store and repository instances.
        try (HikariDataSource poolB = pool(url, "replica-b");
             PostgresStore store = PostgresStore.builder(poolB).migrate(false).scope(alice.tenantId()).build()) {
            ChatSessionRepository sessions = store.sessions().orElseThrow();
            StoredSession recovered = sessions.read(sessionId).orElseThrow();
            ChatArchiveManifest manifest = store.archives().orElseThrow().loadManifest(sessionId);
            List<Entry> log = store.log().load(logSession, agent);
            check(recovered.revision() == revisionBeforeCrash, "the revision survives");
            check(recovered.session().history().size() == 2, "the history survives");
            check(manifest.archives().size() == 1, "the archive survives");
            check(log.size() == 2, "the log survives");
            System.out.println("4. replica B recovered: revision " + recovered.revision() + ", "
                    + recovered.session().history().size() + " history messages, " + manifest.archives().size()
                    + " archive, " + log.size() + " log entries, lease token "
                    + recovered.session().lease().fencingToken() + " still recorded for replica A");

            // A writer holding the revision it read wins; one holding an older revision is told, not overwritten.
            StoredSession next = sessions.update(recovered.session().toBuilder().pinned(true).build(),
                    recovered.revision()).orElseThrow();
            try {
                sessions.update(recovered.session().toBuilder().name("stale write").build(), recovered.revision());
                check(false, "a stale write must conflict");
            } catch (RevisionConflictException e) {
                System.out.println("5. compare-and-swap: revision " + next.revision() + " written; a stale writer got "
                        + e.stableCode() + " (expected " + e.expectedRevision() + ", actual " + e.actualRevision() + ")");
            }
            // Leases: A never released its lease, so B is refused until it expires (20 s without a refresh) ...
            LeaseOwner replicaB = new LeaseOwner("daemon", "replica-b", "worker-1", null);
            SessionService now = new SessionService(sessions, store.archives().orElseThrow(), Clock.systemUTC(),
                    IdGenerator.uuidV7());
            try {
                now.acquireLease(sessionId, replicaB);
                check(false, "a fresh lease of another owner must be refused");
            } catch (LeaseLostException e) {
                System.out.println("6. replica B is refused the lease while replica A's is fresh: " + e.stableCode());
            }
            // ... then takes it over with a higher fencing token (the clock stands 21 s later), and a write that a
            // zombie replica A still attempts under its old token fails.
            Clock later = Clock.offset(Clock.systemUTC(), java.time.Duration.ofSeconds(21));
            SessionService afterExpiry = new SessionService(sessions, store.archives().orElseThrow(), later,
                    IdGenerator.uuidV7());
            LeaseClaim claimB = afterExpiry.acquireLease(sessionId, replicaB);
            check(claimB.fencingToken() > fencingTokenA, "the new fencing token is higher");
            try {
                afterExpiry.updateWithLease(new LeaseClaim(sessionId, replicaA, fencingTokenA),
                        r -> r.toBuilder().name("zombie write").build());
                check(false, "a write under a lost lease must fail");
            } catch (LeaseLostException e) {
                System.out.println("7. after expiry replica B holds the lease with fencing token " + claimB.fencingToken()
                        + "; replica A's late write under token " + fencingTokenA + " failed: " + e.stableCode());
            }
            // The log continues after the last recovered entry.
            store.log().append(logSession, agent, List.of(NewEntry.of(new EntryId("m3"), log.get(1).id(), Instant.now(),
                    Message.user("Thanks!"))));
            check(store.log().load(logSession, agent).size() == 3, "the log continues");
            System.out.println("8. replica B appended to the log after entry " + log.get(1).id()
                    + "; the session now has 3 entries");
        }
        System.out.println("ok: migrations, tenant-bound repositories and recovery through a fresh pool all held");
    }

    static void check(boolean condition, String what) {
        if (!condition) {
            throw new IllegalStateException("check failed: " + what);
        }
    }
}
