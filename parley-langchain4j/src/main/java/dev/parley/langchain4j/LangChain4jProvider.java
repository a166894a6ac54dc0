package dev.parley.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.parley.agent.ModelProvider;
import dev.parley.agent.ModelRequest;
import dev.parley.agent.ProviderException;
import dev.parley.agent.Receiver;
import dev.parley.agent.ToolSpec;
import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import dev.parley.json.Json;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ModelProvider} over any LangChain4j {@link ChatModel}. Parley messages map to LangChain4j's: system
 * messages to {@link SystemMessage}, user text to {@link UserMessage}, assistant text and tool calls to
 * {@link AiMessage}, each tool result to a {@link ToolExecutionResultMessage}; summaries and custom roles are sent as
 * user text naming their role. Tool argument schemas are translated from JSON Schema.
 *
 * <p>LangChain4j's failures become {@link ProviderException}s, retriable unless LangChain4j reports an invalid request
 * or an authentication failure (an exception whose class name contains {@code InvalidRequest} or
 * {@code Authentication}). Thread-safe if the chat model is.
 */
public final class LangChain4jProvider implements ModelProvider {
    private final String name;
    private final ChatModel model;
    private final @Nullable String endpoint;

    /**
     * @param name the provider name stamped on messages ({@code openai}…)
     * @param model the LangChain4j chat model, already configured with its model name
     */
    public LangChain4jProvider(String name, ChatModel model) {
        this(name, model, null);
    }

    /**
     * @param name the provider name stamped on messages ({@code openai}…)
     * @param model the LangChain4j chat model, already configured with its model name
     * @param endpoint where the model is reached, named in the message of a failed call (with a password or token in
     *     it masked, as {@link dev.parley.core.store.Stores#redact} masks it); null when unknown
     */
    public LangChain4jProvider(String name, ChatModel model, @Nullable String endpoint) {
        this.name = Objects.requireNonNull(name, "name");
        this.model = Objects.requireNonNull(model, "model");
        this.endpoint = endpoint == null ? null : dev.parley.core.store.Stores.redact(endpoint);
    }

    /**
     * What went wrong, from the innermost cause: a client library's wrapper often says no more than the class name of
     * what it wraps ({@code java.net.ConnectException}).
     */
    private static String cause(Throwable e) {
        Throwable root = e;
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        while (root.getCause() != null && seen.add(root)) { // a cause chain may loop back on itself
            root = root.getCause();
        }
        String detail = root.getMessage();
        String outer = e.getMessage();
        String what = root.getClass().getSimpleName() + (detail == null || detail.isBlank() ? "" : ": " + detail);
        // a client's message may quote the URL it called, with whatever credentials it holds
        return dev.parley.core.store.Stores.redact(root == e || outer == null || outer.isBlank()
                || outer.contains(root.getClass().getName()) ? what : outer + " (" + what + ")");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Message complete(ModelRequest request, Receiver receiver) {
        ChatRequest.Builder chat = ChatRequest.builder().messages(toChatMessages(request));
        if (!request.tools().isEmpty()) {
            chat.toolSpecifications(request.tools().stream().map(LangChain4jProvider::toSpecification).toList());
        }
        ChatResponse response;
        try {
            response = model.chat(chat.build());
        } catch (RuntimeException e) {
            boolean invalid = e.getClass().getSimpleName().contains("InvalidRequest")
                    || e.getClass().getSimpleName().contains("Authentication");
            throw new ProviderException(name + " call" + (endpoint == null ? "" : " to " + endpoint) + " failed: "
                    + cause(e), !invalid, e);
        }
        AiMessage ai = response.aiMessage();
        Message.Builder b = Message.builder(Role.ASSISTANT).provider(name).model(response.modelName())
                .responseId(response.id());
        if (ai.thinking() != null && !ai.thinking().isEmpty()) {
            receiver.onThinkingDelta(ai.thinking());
            b.add(new ContentBlock.Thinking(ai.thinking(), null));
        }
        if (ai.text() != null && !ai.text().isEmpty()) {
            receiver.onTextDelta(ai.text());
            b.add(new ContentBlock.Text(ai.text()));
        }
        if (ai.toolExecutionRequests() != null) {
            for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
                if (call.name() == null) {
                    throw new dev.parley.core.InvalidInputException("the model answered a tool call (id " + call.id()
                            + ") without a name");
                }
                b.add(new ContentBlock.ToolCall(call.id(), call.name(),
                        RawJson.of(call.arguments() == null || call.arguments().isBlank() ? "{}" : call.arguments())));
            }
        }
        TokenUsage usage = response.tokenUsage();
        if (usage != null) {
            b.usage(Usage.of(orZero(usage.inputTokenCount()), orZero(usage.outputTokenCount())));
        }
        if (response.finishReason() != null) {
            b.stopReason(response.finishReason().name().toLowerCase(Locale.ROOT));
        }
        return b.build();
    }

    private static long orZero(Integer n) {
        return n == null ? 0 : n;
    }

    /** The conversation as LangChain4j messages. */
    static List<ChatMessage> toChatMessages(ModelRequest request) {
        List<ChatMessage> out = new ArrayList<>();
        if (request.systemPrompt() != null) {
            out.add(SystemMessage.from(request.systemPrompt()));
        }
        Map<String, String> callNames = new HashMap<>();
        for (Message m : request.messages()) {
            if (m.role().equals(Role.SYSTEM)) {
                out.add(SystemMessage.from(m.text()));
            } else if (m.role().equals(Role.USER)) {
                out.add(UserMessage.from(m.text()));
            } else if (m.role().equals(Role.ASSISTANT)) {
                List<ToolExecutionRequest> calls = new ArrayList<>();
                for (ContentBlock.ToolCall c : m.toolCalls()) {
                    callNames.put(c.id(), c.name());
                    calls.add(ToolExecutionRequest.builder().id(c.id()).name(c.name()).arguments(c.arguments().text())
                            .build());
                }
                String text = m.text().isEmpty() ? null : m.text();
                out.add(calls.isEmpty() ? AiMessage.from(text == null ? "" : text) : AiMessage.from(text, calls));
            } else if (m.role().equals(Role.TOOL)) {
                for (ContentBlock.ToolResult r : m.toolResults()) {
                    String toolName = r.toolName() != null ? r.toolName() : callNames.getOrDefault(r.callId(), "tool");
                    out.add(ToolExecutionResultMessage.from(r.callId(), toolName, r.text()));
                }
            } else {
                out.add(UserMessage.from("[" + m.role().name() + "] " + m.text()));
            }
        }
        return out;
    }

    /** A tool's description and JSON Schema as a LangChain4j specification. */
    static ToolSpecification toSpecification(ToolSpec spec) {
        JsonNode schema = Json.tree(spec.parameters());
        return ToolSpecification.builder().name(spec.name()).description(spec.description())
                .parameters(objectSchema(schema)).build();
    }

    private static JsonObjectSchema objectSchema(JsonNode schema) {
        JsonObjectSchema.Builder b = JsonObjectSchema.builder();
        if (schema.hasNonNull("description")) {
            b.description(schema.get("description").asText());
        }
        Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        while (properties.hasNext()) {
            Map.Entry<String, JsonNode> p = properties.next();
            b.addProperty(p.getKey(), element(p.getValue()));
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        if (!required.isEmpty()) {
            b.required(required);
        }
        return b.build();
    }

    private static JsonSchemaElement element(JsonNode s) {
        String description = s.hasNonNull("description") ? s.get("description").asText() : null;
        if (s.has("enum") && s.get("enum").isArray()) {
            List<String> values = new ArrayList<>();
            s.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder().enumValues(values).description(description).build();
        }
        return switch (s.path("type").asText("")) {
            case "string" -> JsonStringSchema.builder().description(description).build();
            case "integer" -> JsonIntegerSchema.builder().description(description).build();
            case "number" -> JsonNumberSchema.builder().description(description).build();
            case "boolean" -> JsonBooleanSchema.builder().description(description).build();
            case "array" -> JsonArraySchema.builder().description(description)
                    .items(s.has("items") ? element(s.get("items")) : JsonStringSchema.builder().build()).build();
            case "object" -> objectSchema(s);
            default -> JsonRawSchema.from(Json.write(s));
        };
    }
}
