/**
 * The third contract: revisioned session records and an append-only archive (Heddle, see the glossary;
 * Heddle's {@code ChatSessionRepository} and {@code ChatArchiveRepository}).
 *
 * <p>A {@link dev.parley.core.repository.ChatSession} is a whole record (transcript, UI lines, turns, lease, queued
 * prompts, catalog fields) written under compare-and-swap on an integer revision. Repositories are constructed
 * bound to a scope (a tenant); no operation takes a scope. The catalog pages by an opaque cursor in the order
 * pinned first, newest activity, then id in UTF-8 byte order ({@link dev.parley.core.repository.CatalogOrder}).
 * Errors carry Heddle's stable codes ({@link dev.parley.core.ParleyException#stableCode()}).
 */
@NullMarked
package dev.parley.core.repository;

import org.jspecify.annotations.NullMarked;
