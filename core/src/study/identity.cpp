// Case identities from the field tables' identity rules (identity.hpp).
#include "study/identity.hpp"

#include "study/fields.hpp"

#include <algorithm>
#include <map>
#include <utility>

namespace formatbench {

std::string canonical_options(const option_list& options) {
    option_list o = options;
    std::sort(o.begin(), o.end());
    std::string out;
    for (const auto& [k, v] : o)
        out += (out.empty() ? "" : ",") + k + "=" + v;
    return out;
}

namespace {

case_identity base_identity(const case_spec& c) {
    const dataset_spec& d = c.dataset;
    case_identity id;
    id.emplace_back("dataset.name", d.name);
    for (const auto& f : dataset_fields())
        if ((f.identity & identity_always) && (f.key == "dtype" || f.key == "count"))
            id.emplace_back("dataset." + f.identity_name, f.identity_text(d));
    if (!d.file.empty()) {
        id.emplace_back("data.file", d.file);
        id.emplace_back("data.plugin", d.file_plugin);
        id.emplace_back("data.options", canonical_options(d.file_options));
    } else {
        for (const auto& f : dataset_fields())
            if ((f.identity & identity_always) && f.key != "dtype" && f.key != "count" && f.applies(d))
                id.emplace_back("data." + f.identity_name, f.identity_text(d));
    }
    if (!d.shape.empty()) id.emplace_back("dataset.shape", shape_text(d.shape));
    id.emplace_back("format.label", c.format.label);
    id.emplace_back("format.plugin", c.format.plugin);
    id.emplace_back("format.options", canonical_options(c.format.options));
    return id;
}

std::string group_of(const std::string& name) {
    return name.substr(0, name.find('.'));
}

std::string short_name(const std::string& name) {
    return name.substr(name.find('.') + 1);
}

} // namespace

void assign_identities(std::vector<case_spec>& cases) {
    const auto& fields = run_fields();
    // Which run parameters vary among the cases of one data set and label.
    std::map<std::pair<std::string, std::string>, std::vector<bool>> varied;
    std::map<std::pair<std::string, std::string>, const case_spec*> first;
    for (const case_spec& c : cases) {
        const auto group = std::make_pair(c.dataset.name, c.format.label);
        auto [at, inserted] = first.emplace(group, &c);
        auto& v = varied[group];
        v.resize(fields.size(), false);
        if (inserted) continue;
        for (std::size_t i = 0; i < fields.size(); ++i)
            if (!fields[i].same(at->second->params, c.params)) v[i] = true;
    }
    const run_params defaults;
    for (case_spec& c : cases) {
        c.identity = base_identity(c);
        const auto& v = varied[{c.dataset.name, c.format.label}];
        for (std::size_t i = 0; i < fields.size(); ++i) {
            const auto& f = fields[i];
            const bool in =
                f.applies(c.params) && ((f.identity & identity_always) ||
                                        ((f.identity & identity_when_set) && !f.same(c.params, defaults)) ||
                                        ((f.identity & identity_when_varied) && v[i]));
            if (in) c.identity.emplace_back("run." + f.identity_name, f.identity_text(c.params));
        }
        c.key = key_text(c.identity);
    }
}

bool differ_only_where_void(const run_params& a, const run_params& b) {
    bool differ = false;
    for (const auto& f : run_fields()) {
        if (f.same(a, b)) continue;
        if (f.applies(a) || f.applies(b)) return false;
        differ = true;
    }
    return differ;
}

std::string key_text(const case_identity& id) {
    // dataset values joined by '/', then the data's name=value pairs; the
    // format's values joined by '/'; the run's name=value pairs.
    std::string dataset, data, format, run;
    for (const auto& [name, value] : id) {
        const std::string g = group_of(name);
        if (g == "dataset") dataset += (dataset.empty() ? "" : "/") + value;
        // append, not (sep + a + "=" + b): GCC 12 warns falsely (-Wrestrict) on that.
        if (g == "data")
            data.append(data.empty() ? "" : ",").append(short_name(name)).append("=").append(value);
        if (g == "format") format += (format.empty() ? "" : "/") + value;
        if (g == "run") run.append(run.empty() ? "" : ",").append(short_name(name)).append("=").append(value);
    }
    return dataset + "/" + data + "|" + format + "|" + run;
}

case_identity without_options(const case_identity& id) {
    case_identity out;
    for (const auto& entry : id)
        if (entry.first != "format.options") out.push_back(entry);
    return out;
}

} // namespace formatbench
