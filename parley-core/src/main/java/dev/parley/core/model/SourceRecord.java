package dev.parley.core.model;

import dev.parley.core.RawJson;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where an imported entry came from, and everything of its source record that the model does not hold.
 *
 * <p>An importer maps a source record (a Claude Code line, a pi entry, an OpenAI message) to the model, then
 * computes the {@code residual}: the difference between the source record and what the format's exporter would
 * write for the model alone. Unknown fields appear in it verbatim; so do representation details the model does not
 * keep. Exporting to the same format applies the residual again, so the source record comes back exactly
 * (see {@code docs/01-source-residuals.md}).
 *
 * @param format the source format's name ({@code claude-code}, {@code pi}, {@code openai-chat}…)
 * @param residual the residual as JSON, or null when the model holds the whole record
 */
public record SourceRecord(String format, @Nullable RawJson residual) {
    /**
     * @param format the source format's name
     * @param residual the residual as JSON, or null
     * @throws NullPointerException if {@code format} is null; {@code residual} may be
     */
    public SourceRecord {
        Objects.requireNonNull(format, "format");
    }
}
