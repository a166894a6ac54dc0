package com.example.mapstore;

import dev.parley.core.repository.ArchiveAppend;
import dev.parley.core.repository.ArchiveRecord;
import dev.parley.core.repository.ChatArchiveManifest;
import dev.parley.core.repository.ChatArchiveRepository;
import dev.parley.core.repository.ChatMessage;
import dev.parley.core.repository.StorageCorruptionException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;

/**
 * A {@link ChatArchiveRepository} over one scope's maps: the content is put first, then the manifest is swapped in
 * one atomic {@link ConcurrentMap#compute}, so a committed manifest never names missing content and concurrent appends
 * to one session both land.
 */
final class MapArchiveRepository implements ChatArchiveRepository {
    private final ConcurrentMap<String, MapStorage.ManifestRow> manifests;
    private final ConcurrentMap<String, MapStorage.Content> content;

    MapArchiveRepository(ConcurrentMap<String, MapStorage.ManifestRow> manifests,
                         ConcurrentMap<String, MapStorage.Content> content) {
        this.manifests = manifests;
        this.content = content;
    }

    @Override
    public ChatArchiveManifest loadManifest(String sessionId) {
        MapStorage.ManifestRow row = manifests.get(sessionId);
        if (row == null) {
            return ChatArchiveManifest.empty(sessionId);
        }
        if (row.damaged()) {
            throw new StorageCorruptionException("map manifest " + sessionId, "the stored manifest is damaged", null,
                    true);
        }
        return row.manifest();
    }

    @Override
    public Optional<String> readSummary(String summaryLocator) {
        return Optional.ofNullable(content.get(summaryLocator)).map(MapStorage.Content::summary);
    }

    @Override
    public Optional<List<ChatMessage>> readMessages(String messagesLocator) {
        Optional<MapStorage.Content> stored = Optional.empty();
        if (messagesLocator.endsWith("/messages")) {
            String summaryLocator = messagesLocator.substring(0, messagesLocator.length() - "/messages".length())
                    + "/summary";
            stored = Optional.ofNullable(content.get(summaryLocator));
        }
        return stored.map(MapStorage.Content::messages);
    }

    @Override
    public ArchiveAppend.Result append(ArchiveAppend request) {
        ArchiveRecord archive = MapStorage.placed(request.archive(), request.sessionId());
        // Content first, under a locator of this attempt alone: a losing duplicate never overwrites what a committed
        // manifest names. Then the manifest, swapped atomically; a duplicate id fails there and changes nothing.
        loadManifest(request.sessionId()).withArchive(archive); // fails early on a known duplicate id
        MapStorage.Content stored = new MapStorage.Content(request.messages(), request.summary());
        content.put(archive.summaryPath(), stored);
        MapStorage.ManifestRow committed = manifests.compute(request.sessionId(), (id, row) -> {
            ChatArchiveManifest base = row == null ? ChatArchiveManifest.empty(id) : row.manifest();
            return new MapStorage.ManifestRow(base.withArchive(archive), false);
        });
        return new ArchiveAppend.Result(archive, committed.manifest());
    }
}
