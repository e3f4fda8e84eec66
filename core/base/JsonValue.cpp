// JsonValue: construction, access and the writer (the reader is in JsonParser.cpp).
#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/base/JsonValue.h"

namespace tomo {

JsonValue JsonValue::boolean(bool b) {
    JsonValue v;
    v.m_type = Type::Bool;
    v.m_bool = b;
    return v;
}

JsonValue JsonValue::number(double x) {
    JsonValue v;
    v.m_type = Type::Number;
    v.m_number = x;
    return v;
}

JsonValue JsonValue::string(std::string s) {
    JsonValue v;
    v.m_type = Type::String;
    v.m_string = std::move(s);
    return v;
}

JsonValue JsonValue::array() {
    JsonValue v;
    v.m_type = Type::Array;
    return v;
}

JsonValue JsonValue::object() {
    JsonValue v;
    v.m_type = Type::Object;
    return v;
}

bool JsonValue::asBool(bool fallback) const {
    return m_type == Type::Bool ? m_bool : fallback;
}

double JsonValue::asNumber(double fallback) const {
    return m_type == Type::Number ? m_number : fallback;
}

std::string JsonValue::asString(const std::string& fallback) const {
    return m_type == Type::String ? m_string : fallback;
}

const JsonValue* JsonValue::find(std::string_view key) const {
    for (const Member& m : m_members)
        if (m.first == key) return &m.second;
    return nullptr;
}

std::string JsonValue::stringAt(std::string_view key, const std::string& fallback) const {
    const JsonValue* v = find(key);
    return v ? v->asString(fallback) : fallback;
}

double JsonValue::numberAt(std::string_view key, double fallback) const {
    const JsonValue* v = find(key);
    return v ? v->asNumber(fallback) : fallback;
}

bool JsonValue::boolAt(std::string_view key, bool fallback) const {
    const JsonValue* v = find(key);
    return v ? v->asBool(fallback) : fallback;
}

JsonValue& JsonValue::set(std::string key, JsonValue value) {
    if (m_type == Type::Null) m_type = Type::Object;
    m_members.emplace_back(std::move(key), std::move(value));
    return *this;
}

JsonValue& JsonValue::push(JsonValue value) {
    if (m_type == Type::Null) m_type = Type::Array;
    m_items.push_back(std::move(value));
    return *this;
}

namespace {

void writeString(std::string& out, const std::string& s) {
    out += '"';
    for (unsigned char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\b':
                out += "\\b";
                break;
            case '\f':
                out += "\\f";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
}

void newline(std::string& out, int indent, int depth) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
}

}  // namespace

void JsonValue::write(std::string& out, int indent, int depth) const {
    switch (m_type) {
        case Type::Null:
            out += "null";
            break;
        case Type::Bool:
            out += m_bool ? "true" : "false";
            break;
        case Type::Number: {
            if (!std::isfinite(m_number)) {
                out += "null";
                break;
            }
            char buf[32];
            auto r = std::to_chars(buf, buf + sizeof buf, m_number);
            out.append(buf, r.ptr);
            break;
        }
        case Type::String:
            writeString(out, m_string);
            break;
        case Type::Array:
            out += '[';
            for (std::size_t i = 0; i < m_items.size(); ++i) {
                if (i) out += ',';
                newline(out, indent, depth + 1);
                m_items[i].write(out, indent, depth + 1);
            }
            if (!m_items.empty()) newline(out, indent, depth);
            out += ']';
            break;
        case Type::Object:
            out += '{';
            for (std::size_t i = 0; i < m_members.size(); ++i) {
                if (i) out += ',';
                newline(out, indent, depth + 1);
                writeString(out, m_members[i].first);
                out += indent > 0 ? ": " : ":";
                m_members[i].second.write(out, indent, depth + 1);
            }
            if (!m_members.empty()) newline(out, indent, depth);
            out += '}';
            break;
    }
}

std::string JsonValue::dump(int indent) const {
    std::string out;
    write(out, indent, 0);
    return out;
}

}  // namespace tomo
