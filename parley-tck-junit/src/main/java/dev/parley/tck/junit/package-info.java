/**
 * The JUnit 5 entry points of Parley's conformance kit ({@code parley-tck-junit}; the scenarios, harnesses and
 * runner are in {@code parley-tck}, package {@code dev.parley.tck}, which depends on no test framework). Add this
 * artifact at test scope and extend {@link dev.parley.tck.junit.StoreConformance} (a whole store, by its
 * capabilities), or {@link dev.parley.tck.junit.MessageLogConformance},
 * {@link dev.parley.tck.junit.SessionRepositoryConformance} and {@link dev.parley.tck.junit.ArchiveRepositoryConformance}
 * (one contract, with a harness of your own). Every scenario becomes a dynamic test named by its id and name
 * ({@code ML-04 truncate after removes later entries of every agent}); a failure's message starts with the same.
 */
@NullMarked
package dev.parley.tck.junit;

import org.jspecify.annotations.NullMarked;
