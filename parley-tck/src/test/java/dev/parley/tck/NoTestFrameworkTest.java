package dev.parley.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kit ships in the {@code parley} jar ({@code parley conformance}), which must carry no test framework: JUnit
 * belongs to {@code parley-tck-junit}.
 */
class NoTestFrameworkTest {

    @Test
    void mainClasses_referenceNoTestFramework() throws Exception {
        Path classes = Path.of(StoreHarness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        assertThat(files).hasSizeGreaterThan(10);
        for (Path f : files) {
            String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
            assertThat(bytes).as(f.toString()).doesNotContain("org/junit").doesNotContain("org/opentest4j");
        }
    }

    @Test
    void pom_hasJUnitOnlyAtTestScope() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        String[] dependencies = pom.split("<dependency>");
        for (int i = 1; i < dependencies.length; i++) {
            String d = dependencies[i].substring(0, dependencies[i].indexOf("</dependency>"));
            if (d.contains("<groupId>org.junit")) {
                assertThat(d).as(d).contains("<scope>test</scope>");
            }
        }
    }
}
