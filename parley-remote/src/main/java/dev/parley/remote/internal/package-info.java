/** The remote store's transport, journal and contract implementations. Not API. */
@NullMarked
package dev.parley.remote.internal;

import org.jspecify.annotations.NullMarked;
