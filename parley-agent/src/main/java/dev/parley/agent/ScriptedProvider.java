package dev.parley.agent;

import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A deterministic model provider for tests, demos and the {@code --provider scripted} chat: a {@link Script} decides
 * each reply from the request (text, thinking, tool calls, usage), the reply is streamed word by word, and failures
 * can be injected mid-stream. Thread-safe if the script is.
 */
public final class ScriptedProvider implements ModelProvider {
    /** Decides the next assistant message from the request. */
    @FunctionalInterface
    public interface Script {
        /**
         * The assistant message to answer {@code request} with. Called once per {@link ScriptedProvider#complete}
         * call, before anything is streamed. The provider fills in what the message leaves out: usage (estimated at
         * one token per four characters), the stop reason, the provider's name and the request's model.
         *
         * @param request the request the provider was called with
         * @return the reply, not null
         * @throws ProviderException to fail the call (a {@link #sequence} that has run out does); it propagates out of
         *     {@code complete} and nothing is streamed
         */
        Message reply(ModelRequest request);
    }

    private final String name;
    private final Script script;
    private final AtomicInteger calls = new AtomicInteger();
    private volatile Predicate<ModelRequest> failWhen = r -> false;

    /**
     * A provider that replies as {@code script} decides, with no failures injected until {@link #failWhen} is set.
     *
     * @param name the provider's name ({@link #name()}), stamped on replies that name no provider of their own
     * @param script decides each reply
     * @throws NullPointerException if {@code name} or {@code script} is null
     */
    public ScriptedProvider(String name, Script script) {
        this.name = Objects.requireNonNull(name, "name");
        this.script = Objects.requireNonNull(script, "script");
    }

    /**
     * A provider whose replies echo the last user message.
     *
     * @return a provider named {@code scripted} that answers {@code "You said: "} and the text of the request's last
     *     user message (nothing after it when there is none)
     */
    public static ScriptedProvider echo() {
        return new ScriptedProvider("scripted", request -> {
            String last = "";
            for (Message m : request.messages()) {
                if (m.role().equals(Role.USER)) {
                    last = m.text();
                }
            }
            return Message.builder(Role.ASSISTANT).add(new ContentBlock.Text("You said: " + last)).build();
        });
    }

    /**
     * A script that returns the given replies in order, one per call, and fails when they run out.
     *
     * @param replies the replies, in the order they are given; read as the calls come, not copied
     * @return the script; a call after the last reply throws a {@link ProviderException} that is not retriable
     */
    public static Script sequence(List<Message> replies) {
        AtomicInteger next = new AtomicInteger();
        return request -> {
            int i = next.getAndIncrement();
            if (i >= replies.size()) {
                throw new ProviderException("the script has no reply " + (i + 1), false, null);
            }
            return replies.get(i);
        };
    }

    /**
     * Makes every call for which {@code when} holds fail after streaming part of its reply.
     *
     * @param when tests each request; the call fails with a retriable {@link ProviderException} where it holds, in
     *     place of the previous predicate
     * @return this provider
     * @throws NullPointerException if {@code when} is null
     */
    public ScriptedProvider failWhen(Predicate<ModelRequest> when) {
        this.failWhen = Objects.requireNonNull(when, "when");
        return this;
    }

    /**
     * How many calls were made.
     *
     * @return the number of {@link #complete} calls so far, failed ones included
     */
    public int calls() {
        return calls.get();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Message complete(ModelRequest request, Receiver receiver) {
        calls.incrementAndGet();
        Message reply = script.reply(request);
        for (ContentBlock block : reply.content()) {
            if (block instanceof ContentBlock.Thinking t) {
                receiver.onThinkingDelta(t.text());
            } else if (block instanceof ContentBlock.Text t) {
                String[] words = t.text().split("(?<= )");
                for (int i = 0; i < words.length; i++) {
                    receiver.onTextDelta(words[i]);
                    if (i == words.length / 2 && failWhen.test(request)) {
                        throw new ProviderException("injected failure mid-stream", true, null);
                    }
                }
            }
        }
        if (failWhen.test(request)) {
            throw new ProviderException("injected failure before the reply completed", true, null);
        }
        Message.Builder b = reply.toBuilder();
        if (reply.usage() == null) {
            long in = request.messages().stream().mapToLong(m -> m.text().length() / 4 + 1).sum();
            b.usage(Usage.of(in, reply.text().length() / 4 + 1));
        }
        if (reply.stopReason() == null) {
            b.stopReason(reply.toolCalls().isEmpty() ? "stop" : "toolUse");
        }
        return b.provider(reply.provider() != null ? reply.provider() : name)
                .model(reply.model() != null ? reply.model() : request.model()).build();
    }
}
