package dev.parley.tck;

import dev.parley.core.RawJson;
import dev.parley.core.model.ContentBlock;
import dev.parley.core.model.Message;
import dev.parley.core.model.Role;
import dev.parley.core.model.Usage;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Messages that exercise every corner of exact round-tripping: null versus empty text, tool-call ids and argument
 * JSON (also in non-compact form), parallel calls, thinking with empty text and a signature, images and files,
 * opaque provider items, astral-plane Unicode, NUL and control characters, unknown-role names and metadata.
 */
public final class Samples {
    private Samples() {}

    /**
     * A fixed list of tricky messages, the same on every call.
     *
     * @return the messages, an immutable list
     */
    public static List<Message> tricky() {
        Instant at = Instant.parse("2025-12-08T22:41:05.306Z");
        return List.of(
                Message.user("hello 😀 \u0000 nul, \u001b[2m ansi, 中文, \uE000 private use"),
                Message.builder(Role.USER).content(List.of(new ContentBlock.Text(""))).build(),
                Message.builder(Role.USER).content(List.of()).createdAt(at).build(),
                Message.builder(Role.ASSISTANT)
                        .add(new ContentBlock.Thinking("", "sig-ΩmEgA=="))
                        .add(new ContentBlock.Text("Two calls at once."))
                        .add(new ContentBlock.ToolCall("toolu_01", "read", RawJson.of("{\"path\":\"/a b/c.txt\"}")))
                        .add(new ContentBlock.ToolCall("call_02|fc_9", "grep", RawJson.of("{ \"q\" : \"x\\u0041\" }")))
                        .provider("anthropic").model("claude-opus-4-5")
                        .usage(new Usage(2775, 141, 10, 20, 5, new BigDecimal("0.017400000000000002")))
                        .stopReason("toolUse").createdAt(at).responseId("msg_01")
                        .putMetadata("trace", RawJson.of("{\"span\":[1,2.50,null,true]}"))
                        .build(),
                Message.builder(Role.TOOL)
                        .add(ContentBlock.ToolResult.text("toolu_01", "read", "line 1\nline 2", false))
                        .add(new ContentBlock.ToolResult("call_02|fc_9", null, List.of(
                                new ContentBlock.Text("see image"),
                                new ContentBlock.Image("image/png", "iVBORw0KGgo=", null)), true, false))
                        .build(),
                Message.builder(Role.USER)
                        .add(new ContentBlock.Image(null, null, "https://example.invalid/cat.png"))
                        .add(new ContentBlock.File("application/pdf", "JVBERi0=", null, "spec.pdf"))
                        .add(new ContentBlock.ProviderItem("reasoning", RawJson.of(
                                "{\"type\":\"reasoning\",\"encrypted_content\":\"gAAAA\",\"summary\":[]}")))
                        .build(),
                Message.builder(Role.ASSISTANT).content(List.of()).stopReason("aborted")
                        .errorMessage("Request was aborted").build(),
                Message.builder(Role.of("bashExecution")).plainText("$ ls\nREADME.md").build());
    }

    /**
     * A deterministic pseudo-random message drawn from {@code random}.
     *
     * @param random the source of every choice; generators seeded alike give the same messages in the same order
     * @return a user, assistant, tool or system message, with usage half of the time
     */
    public static Message random(Random random) {
        Role role = List.of(Role.USER, Role.ASSISTANT, Role.TOOL, Role.SYSTEM).get(random.nextInt(4));
        Message.Builder b = Message.builder(role);
        if (role.equals(Role.TOOL)) {
            b.add(ContentBlock.ToolResult.text("call_" + random.nextInt(1000), "tool", text(random), random.nextBoolean()));
        } else if (random.nextInt(3) == 0) {
            b.plainText(text(random));
        } else {
            List<ContentBlock> blocks = new ArrayList<>();
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                blocks.add(random.nextBoolean() ? new ContentBlock.Text(text(random))
                        : new ContentBlock.ToolCall("call_" + random.nextInt(1000), "t" + i,
                        RawJson.of("{\"n\":" + random.nextInt() + "}")));
            }
            b.content(blocks);
        }
        if (random.nextBoolean()) {
            b.usage(Usage.of(random.nextInt(5000), random.nextInt(500)));
        }
        return b.build();
    }

    private static String text(Random random) {
        String[] pieces = {"a", "é", "😀", "\n", "\t", "\"", "\\", "\u0000", "中", " ", "{", "}"};
        StringBuilder out = new StringBuilder();
        int n = random.nextInt(12);
        for (int i = 0; i < n; i++) {
            out.append(pieces[random.nextInt(pieces.length)]);
        }
        return out.toString();
    }
}
