// `--set KEY=VALUE`: walks KEY ("datasets.0.count") through the study schema
// and the YAML tree together, creating missing maps on the way, and replaces
// the node at the end with VALUE parsed as YAML. The schema check makes a
// misspelt key an error (with a suggestion) instead of a silently ignored
// override.
#include "study/set.hpp"
#include "base/suggest.hpp"
#include "study/reader.hpp"
#include "study/schema.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace formatbench::detail {
namespace {

// What a node of the study is, as far as paths are concerned.
enum class kind {
    top,
    run_map,
    dataset_list,
    dataset,
    from_file,
    free_map,
    format_list,
    format,
    output_list,
    output,
    string_list,
    leaf
};

bool is_list(kind k) {
    return k == kind::dataset_list || k == kind::format_list || k == kind::output_list ||
           k == kind::string_list;
}

const std::vector<std::string>* allowed_keys(kind k) {
    static const std::vector<std::string> format = format_keys();
    static const std::vector<std::string> top = top_keys();
    static const std::vector<std::string> run = run_param_keys();
    static const std::vector<std::string> dataset = dataset_keys();
    switch (k) {
    case kind::top: return &top;
    case kind::run_map: return &run;
    case kind::dataset: return &dataset;
    case kind::from_file: return &from_file_keys;
    case kind::format: return &format;
    case kind::output: return &output_keys;
    default: return nullptr; // free map: any key
    }
}

kind child_kind(kind parent, const std::string& key) {
    switch (parent) {
    case kind::top:
        if (key == "defaults") return kind::run_map;
        if (key == "datasets") return kind::dataset_list;
        if (key == "formats") return kind::format_list;
        if (key == "outputs") return kind::output_list;
        if (key == "plugin_path") return kind::string_list;
        return kind::leaf;
    case kind::dataset: return key == "from_file" ? kind::from_file : kind::leaf;
    case kind::from_file:
    case kind::format: return key == "options" ? kind::free_map : kind::leaf;
    case kind::dataset_list: return kind::dataset;
    case kind::format_list: return kind::format;
    case kind::output_list: return kind::output;
    default: return kind::leaf;
    }
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        auto at = s.find(sep, start);
        out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) break;
        start = at + 1;
    }
    return out;
}

class set_walker {
public:
    set_walker(const std::string& source, const std::string& text) : source_(source), text_(text) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw config_error(
            fmt::format("{}:{}:{}: --set '{}': {}", source_, mark_.line + 1, mark_.column + 1, text_, what));
    }
    // Errors point at the deepest node of the path that exists in the file.
    void at(const YAML::Node& n) {
        if (n.IsDefined() && n.Mark().line >= 0) mark_ = n.Mark();
    }
    const YAML::Mark& mark() const { return mark_; }

private:
    const std::string& source_;
    const std::string& text_;
    YAML::Mark mark_; // 0:0 until a node with a position is seen
};

set_override apply_one(YAML::Node& root, const std::string& text, const std::string& source) {
    set_walker w(source, text);
    w.at(root);
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        w.fail("expected KEY=VALUE, e.g. repeat=10 or datasets.0.count=1e7");
    std::string key_text = text.substr(0, eq);
    std::string value_text = text.substr(eq + 1);

    std::vector<std::string> segments = split(key_text, '.');
    if (std::any_of(segments.begin(), segments.end(), [](const std::string& s) { return s.empty(); }))
        w.fail(fmt::format(
            "'{}' is not a key path; write keys separated by dots, e.g. formats.1.options.level", key_text));
    // `repeat=10` is shorthand for `defaults.repeat=10`: run parameters are
    // the overrides people reach for most.
    if (const auto run = run_param_keys(); std::find(run.begin(), run.end(), segments[0]) != run.end())
        segments.insert(segments.begin(), "defaults");

    if (!root.IsDefined() || root.IsNull()) root.reset(YAML::Node(YAML::NodeType::Map));
    if (!root.IsMap()) w.fail("the study is not a map of keys, so no key can be set");

    // Parsed once the path is known good, so that errors point at the target.
    auto parse_value = [&]() -> YAML::Node {
        try {
            return value_text.empty() ? YAML::Node(std::string()) : YAML::Load(value_text);
        } catch (const YAML::Exception& e) {
            w.fail(fmt::format("the value is not valid YAML: {} (at column {} of the value)", e.msg,
                               e.mark.column + 1));
        }
    };

    // Nodes are rebound with reset() and built by copy: yaml-cpp's operator=
    // would overwrite the node a handle refers to, and a missing key yields
    // an invalid node that reset() refuses.
    YAML::Node cur;
    cur.reset(root);
    kind k = kind::top;
    std::string canonical;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const std::string& seg = segments[i];
        const bool last = i + 1 == segments.size();
        const YAML::Node& ccur = cur; // const access never inserts
        kind next;
        if (k == kind::leaf) {
            w.fail(fmt::format("'{}' takes a value; it has no key '{}'", canonical, seg));
        } else if (is_list(k)) {
            if (seg.find_first_not_of("0123456789") != std::string::npos || seg.size() > 9)
                w.fail(fmt::format("'{}' is a list: expected an index (0, 1, ...) after it, got '{}'",
                                   canonical, seg));
            std::size_t index = std::stoul(seg);
            if (!cur.IsSequence())
                w.fail(
                    fmt::format("'{}' is not a list in the study, so it has no entry {}", canonical, index));
            if (index >= cur.size())
                w.fail(fmt::format("index {} is out of range: '{}' has {} entr{} (counting from 0)", index,
                                   canonical, cur.size(), cur.size() == 1 ? "y" : "ies"));
            canonical += fmt::format("[{}]", index);
            const YAML::Node child = ccur[index];
            next = child_kind(k, "");
            w.at(child);
            if (last) {
                cur[index] = parse_value();
                break;
            }
            cur.reset(child);
        } else {
            const auto* allowed = allowed_keys(k);
            if (allowed && std::find(allowed->begin(), allowed->end(), seg) == allowed->end()) {
                std::vector<std::string> candidates = *allowed;
                if (k == kind::top)
                    for (const auto& key : run_param_keys())
                        candidates.push_back(key);
                w.fail(fmt::format("{} has no key '{}'{}; its keys are: {}",
                                   canonical.empty() ? "a study" : "'" + canonical + "'", seg,
                                   did_you_mean(seg, candidates), join(*allowed)));
            }
            if (!cur.IsMap()) {
                w.fail(fmt::format("'{}' is not a map in the study{}", canonical,
                                   k == kind::format && cur.IsScalar()
                                       ? " (write it as {plugin: ...} to set its keys)"
                                       : ""));
            }
            canonical += (canonical.empty() ? "" : ".") + seg;
            const YAML::Node child = ccur[seg];
            next = child_kind(k, seg);
            w.at(child);
            if (last) {
                cur[seg] = parse_value();
                break;
            }
            if (!child.IsDefined() || child.IsNull()) {
                // Missing maps on the way are created; a missing list is
                // created empty, so the next step reports "has 0 entries".
                cur[seg] = YAML::Node(is_list(next) ? YAML::NodeType::Sequence : YAML::NodeType::Map);
            }
            const YAML::Node created = ccur[seg];
            cur.reset(created);
        }
        k = next;
    }
    return set_override{canonical, w.mark(), text};
}

} // namespace

std::vector<set_override> apply_sets(YAML::Node& root, const std::vector<std::string>& sets,
                                     const std::string& source) {
    std::vector<set_override> out;
    for (const auto& text : sets)
        out.push_back(apply_one(root, text, source));
    return out;
}

} // namespace formatbench::detail
