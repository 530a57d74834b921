/**
 * Polystack rules engine: manifest parsing, placeholders, rule matching and resource graph expansion.
 */
package dev.polystack.rules;
