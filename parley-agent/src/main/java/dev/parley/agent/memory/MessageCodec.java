package dev.parley.agent.memory;

import dev.parley.core.model.Message;
import java.util.Objects;
import java.util.function.Function;

/**
 * Maps a framework's message type to Parley's {@link Message} and back. The mapping must be exact:
 * {@code decode(encode(m))} equals {@code m} by the framework's own {@code equals}, for every message the framework
 * can make; what Parley does not model goes into {@link Message#metadata()} or a
 * {@link dev.parley.core.model.ContentBlock.ProviderItem}.
 *
 * <p>Implementations are stateless and thread-safe.
 *
 * @param <M> the framework's message type
 */
public interface MessageCodec<M> {

    /** The framework's name, recorded on every memory session it creates ({@code langchain4j}, {@code spring-ai}). */
    String framework();

    /**
     * The message as Parley's.
     *
     * @throws dev.parley.core.InvalidInputException if the message cannot be represented
     */
    Message encode(M message);

    /**
     * The Parley message as the framework's.
     *
     * @throws dev.parley.core.CorruptRecordException if the stored message cannot be one of the framework's
     */
    M decode(Message message);

    /** A codec from two functions. */
    static <M> MessageCodec<M> of(String framework, Function<M, Message> encode, Function<Message, M> decode) {
        Objects.requireNonNull(framework, "framework");
        Objects.requireNonNull(encode, "encode");
        Objects.requireNonNull(decode, "decode");
        return new MessageCodec<>() {
            @Override
            public String framework() {
                return framework;
            }

            @Override
            public Message encode(M message) {
                return encode.apply(message);
            }

            @Override
            public M decode(Message message) {
                return decode.apply(message);
            }
        };
    }
}
