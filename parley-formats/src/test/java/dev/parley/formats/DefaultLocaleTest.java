package dev.parley.formats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.parley.core.IdGenerator;
import dev.parley.core.model.Entry;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Names that Parley stores or prints were lower-cased in the JVM's default locale: under a Turkish one the status label
 * of an import came out as {@code ımported} (dotless i), and an Aider history's {@code ASSISTANT} blocks were named
 * {@code assıstant} in the records its import compares.
 */
class DefaultLocaleTest {
    private Locale saved;

    @BeforeEach
    void turkish() {
        saved = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("tr-TR"));
    }

    @AfterEach
    void restore() {
        Locale.setDefault(saved);
    }

    @Test
    void importStatusLabels_underATurkishDefaultLocale_areAscii_andAnAiderHistoryStillExportsBackByteForByte() throws Exception {
        Path file = CrossFormatExportTest.SAMPLES.resolve(".aider.chat.history.md");
        try (Store store = MemoryStore.open()) {
            Recorder r = new Recorder();
            new Importer(store, IdGenerator.uuidV7()).importPaths(List.of(file), null, r);
            assertThat(r.fatal()).isEmpty();
            assertThat(r.sessions).isNotEmpty();
            StringBuilder back = new StringBuilder();
            for (ImportResult s : r.sessions) {
                for (Entry e : store.log().load(s.session(), null)) {
                    assertThat(e.source()).isNotNull();
                    assertThat(String.valueOf(e.source().residual())).doesNotContain("ı");
                }
                back.append(new Exporter(store).export(s.session(), Format.AIDER, null));
            }
            assertThat(r.sessions.stream().map(s -> s.status().label())).containsOnly("imported");
            assertThat(back.toString()).isEqualTo(Files.readString(file));
        }
    }
}
