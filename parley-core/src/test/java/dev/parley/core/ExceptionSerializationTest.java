package dev.parley.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.log.LastEntryMovedException;
import dev.parley.core.repository.Lease;
import dev.parley.core.repository.LeaseLostException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Found by a reading of the Javadoc: the exceptions that carry ids or a lease (every Throwable is Serializable) failed
 * to serialize with NotSerializableException, since the ids and the lease were not; EntryConflictException had made
 * its fields transient, so a copy lost them. A framework that serializes an exception (a remote call, a job's failure
 * record) now gets every field back.
 */
class ExceptionSerializationTest {
    @SuppressWarnings("unchecked")
    static <T> T roundTrip(T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void exceptionsThatNameIdsOrALease_serializeWithTheirFields() throws Exception {
        LastEntryMovedException moved = roundTrip(new LastEntryMovedException(new SessionId("s1"), new AgentId("a"),
                new EntryId("e1"), new EntryId("e2")));
        assertThat(moved.session()).isEqualTo(new SessionId("s1"));
        assertThat(moved.agent()).isEqualTo(new AgentId("a"));
        assertThat(moved.expected()).isEqualTo(new EntryId("e1"));
        assertThat(moved.actual()).isEqualTo(new EntryId("e2"));

        Lease lease = new Lease("daemon", null, "owner-1", 7, Instant.parse("2026-12-06T00:00:00Z"),
                Instant.parse("2026-12-06T00:00:01Z"), "a label");
        LeaseLostException lost = roundTrip(new LeaseLostException("s1", 6, lease));
        assertThat(lost.actual()).isEqualTo(lease);
        assertThat(lost.expectedToken()).isEqualTo(6);

        EntryConflictException conflict = roundTrip(new EntryConflictException(new SessionId("s1"), new EntryId("e1"), 0));
        assertThat(conflict.session()).isEqualTo(new SessionId("s1"));
        assertThat(conflict.entry()).isEqualTo(new EntryId("e1"));
        assertThat(conflict.getMessage()).isNotBlank();
    }
}
