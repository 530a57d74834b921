package dev.polystack.rules.matching;

import dev.polystack.rules.ResourceIdentity;

import java.util.function.BiFunction;
import java.util.function.Function;

/** One field a rule may set, with how to read it from a rule and from the resource in its environment. */
record Criterion<R>(
        String name, Function<R, String> ruleValue, BiFunction<ResourceIdentity, EnvironmentContext, String> actual) {}
