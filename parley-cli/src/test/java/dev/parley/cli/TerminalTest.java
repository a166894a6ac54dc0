package dev.parley.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalTest {
    @Test
    void escapeSequencesFromTranscripts_areShownNotObeyed() {
        assertThat(Terminal.safe("ok\u001b]0;pwned\u0007\u001b[2J done\nnext\tcol"))
                .isEqualTo("ok␛]0;pwned␇␛[2J done\nnext\tcol");
        assertThat(Terminal.safe("plain 😀 text")).isEqualTo("plain 😀 text");
    }
}
