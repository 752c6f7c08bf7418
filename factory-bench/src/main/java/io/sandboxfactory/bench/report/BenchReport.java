package io.sandboxfactory.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything one bench run found, in the order it was measured: what the table, the JSON and the chart show. */
public final class BenchReport {

    private final Map<String, String> machine = new LinkedHashMap<>();
    private final List<Group> groups = new ArrayList<>();
    private final List<Curve> curves = new ArrayList<>();
    private final Map<String, Double> figures = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    public BenchReport machine(String key, String value) {
        machine.put(key, value);
        return this;
    }

    public BenchReport add(Group group) {
        groups.add(group);
        return this;
    }

    public BenchReport add(Curve curve) {
        curves.add(curve);
        return this;
    }

    /** A single number worth stating on its own, such as the bytes per live session. */
    public BenchReport figure(String name, double value) {
        figures.put(name, value);
        return this;
    }

    /** A line for the reader: a part skipped and why, a goal met or missed. */
    public BenchReport note(String line) {
        notes.add(line);
        return this;
    }

    public Map<String, String> machine() {
        return new LinkedHashMap<>(machine);
    }

    public List<Group> groups() {
        return List.copyOf(groups);
    }

    public List<Curve> curves() {
        return List.copyOf(curves);
    }

    public Map<String, Double> figures() {
        return new LinkedHashMap<>(figures);
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }
}
