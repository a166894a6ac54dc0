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

    /**
     * The framework's name, recorded on every memory session it creates ({@code langchain4j}, {@code spring-ai}).
     *
     * @return the name
     */
    String framework();

    /**
     * The message as Parley's.
     *
     * @param message the framework's message
     * @return the Parley message, from which {@link #decode} makes an equal one
     * @throws dev.parley.core.InvalidInputException if the message cannot be represented
     */
    Message encode(M message);

    /**
     * The Parley message as the framework's.
     *
     * @param message a Parley message, as {@link #encode} made it
     * @return the framework's message
     * @throws dev.parley.core.CorruptRecordException if the stored message cannot be one of the framework's
     */
    M decode(Message message);

    /**
     * A codec from two functions.
     *
     * @param <M> the framework's message type
     * @param framework the framework's name
     * @param encode maps a framework message to Parley's
     * @param decode maps a Parley message to the framework's
     * @return a codec that calls the functions
     * @throws NullPointerException if an argument is null
     */
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
