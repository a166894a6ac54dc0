/**
 * Real transcript formats, in and out. {@link dev.parley.formats.Importer} reads Claude Code, Codex CLI, pi,
 * Gemini CLI and Aider transcripts, OpenAI chat-completions and Responses API conversations and Anthropic Messages
 * requests (and Parley's own JSONL) into a store, losslessly;
 * {@link dev.parley.formats.Exporter} writes a session back out in any of them. The observed schemas are described
 * in their formats' own documentation; how unknown fields survive the trip is {@code docs/01-source-residuals.md}.
 */
@NullMarked
package dev.parley.formats;

import org.jspecify.annotations.NullMarked;
