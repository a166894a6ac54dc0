/**
 * The starter's health indicator for Spring Boot 4, whose Actuator moved health to
 * {@code org.springframework.boot.health}: registered only where that API is on the class path.
 */
@NullMarked
package dev.parley.spring.boot.autoconfigure.boot4;

import org.jspecify.annotations.NullMarked;
