package dev.parley.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.parley.core.InvalidInputException;
import dev.parley.core.SessionId;
import dev.parley.core.model.Entry;
import dev.parley.core.model.Message;
import dev.parley.core.repository.ChatSession;
import dev.parley.core.store.MemoryStore;
import dev.parley.core.store.Store;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoreHarnessTest {

    @Test
    void of_uriThatPinsAScope_isRefusedSayingToRemoveIt() {
        assertThatThrownBy(() -> StoreHarness.of("memory:?parley.scope=mine"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("binds scope 'mine'")
                .hasMessageContaining("without parley.scope=");
    }

    @Test
    void over_storeWhoseUriPinsAScope_isRefused() {
        try (Store pinned = dev.parley.core.store.Stores.open("memory:?parley.scope=mine")) {
            assertThatThrownBy(() -> StoreHarness.over(pinned)).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("parley.scope");
        }
    }

    @Test
    void of_memoryAlone_runsAsANamedMemoryStoreOfItsOwn() {
        String one = StoreHarness.of("memory:").uri();
        String two = StoreHarness.of("memory:").uri();

        assertThat(one).matches("memory:tck-[0-9a-f]{8}");
        assertThat(two).matches("memory:tck-[0-9a-f]{8}").isNotEqualTo(one);
        assertThat(StoreHarness.of("null:").uri()).isEqualTo("null:");
    }

    @Test
    void run_kitWhoseCapabilityTheStoreLacks_skipsEveryScenarioSayingWhy() {
        StoreHarness nothingKept = StoreHarness.of("null:");

        for (Kit kit : Kit.values()) {
            List<Verdict> verdicts = nothingKept.run(kit);
            assertThat(verdicts).extracting(Verdict::scenario).containsExactlyElementsOf(kit.titles());
            assertThat(verdicts).allSatisfy(v -> {
                assertThat(v.outcome()).isEqualTo(Verdict.Outcome.SKIPPED);
                assertThat(v.detail()).contains("does not declare " + kit.requires());
            });
        }
    }

    @Test
    void run_memoryStore_passesEveryRepositoryScenarioButTheDamageOnesWhichSaySkippedAndWhy() {
        try (MemoryStore memory = MemoryStore.open()) {
            StoreHarness harness = StoreHarness.over(memory);

            List<Verdict> verdicts = new java.util.ArrayList<>(harness.run(Kit.SESSION_RECORDS));
            verdicts.addAll(harness.run(Kit.ARCHIVES));
            verdicts.addAll(harness.run(Kit.MESSAGE_LOG));

            Set<String> needDamage = Set.of("CS-7", "AR-6", "ML-08");
            assertThat(verdicts).allSatisfy(v -> {
                if (needDamage.contains(v.id())) {
                    assertThat(v.outcome()).isEqualTo(Verdict.Outcome.SKIPPED);
                    assertThat(v.detail()).contains("damage injection").contains("memory:");
                } else {
                    assertThat(v.outcome()).as(v.scenario() + ": " + v.detail()).isEqualTo(Verdict.Outcome.PASSED);
                }
            });
        }
    }

    @Test
    void run_leavesEverythingOutsideItsScopesAsItWasAndTheStoreOpen() {
        try (MemoryStore memory = MemoryStore.open()) {
            SessionId mine = new SessionId("mine");
            Entry kept = memory.log().persistMessage(mine, MessageLogScenarios.ORCHESTRATOR, Message.user("keep me"),
                    dev.parley.core.IdGenerator.uuidV7());
            ChatSession record = ChatSession.builder("my-record", Instant.parse("2026-03-01T00:00:00Z")).name("m").build();
            memory.sessions().orElseThrow().create(record);

            StoreHarness harness = StoreHarness.over(memory);
            for (Kit kit : Kit.values()) {
                harness.run(kit);
            }

            assertThat(memory.log().load(mine, null)).containsExactly(kept);
            assertThat(memory.sessions().orElseThrow().read("my-record")).map(s -> s.session()).contains(record);
            assertThat(memory.catalog().orElseThrow().list(null, 50).sessions()).extracting(i -> i.id())
                    .containsExactly(mine);
        }
    }

    @Test
    void capabilities_areTheStoresOwn() {
        try (MemoryStore memory = MemoryStore.open()) {
            assertThat(StoreHarness.over(memory).capabilities()).isEqualTo(memory.capabilities());
        }
        assertThat(StoreHarness.of("null:").capabilities()).doesNotContainAnyElementsOf(
                EnumSet.of(dev.parley.core.store.Capability.PERSISTENT));
    }
}
