/** The server's handlers, routes and error mapping. Not API. */
@NullMarked
package dev.parley.server.internal;

import org.jspecify.annotations.NullMarked;
