#pragma once
/// @file JsonValue.h
/// @brief A small JSON document model (null, bool, number, string, array, object) with a writer
/// and a strict reader, enough for the selection cache (SelectionCache.h) without a dependency.
///
/// Reader: RFC 8259 JSON (UTF-8 text; `\uXXXX` escapes, surrogate pairs included, are decoded to
/// UTF-8). Nesting is limited to 64 levels. Errors are InvalidData values naming the byte offset
/// and the cause ("offset 17: expected ':' after object key"); the reader never throws.
/// Numbers are read and written with std::from_chars/std::to_chars, so the C locale's decimal
/// point is irrelevant and doubles round-trip exactly. Non-finite numbers are written as null.
/// Object members keep their insertion order; `find` returns the first member with a key.
/// Threading: a value is a plain value type (copyable); no shared state.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/Status.h"

namespace tomo {

class JsonValue {
  public:
    enum class Type { Null, Bool, Number, String, Array, Object };
    using Member = std::pair<std::string, JsonValue>;

    JsonValue() = default;  ///< null
    static JsonValue boolean(bool b);
    static JsonValue number(double v);
    static JsonValue string(std::string s);
    static JsonValue array();
    static JsonValue object();

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isObject() const { return m_type == Type::Object; }
    bool isArray() const { return m_type == Type::Array; }

    /// The value when of that type, else @p fallback.
    bool asBool(bool fallback = false) const;
    double asNumber(double fallback = 0.0) const;
    std::string asString(const std::string& fallback = {}) const;

    /// Elements of an array (empty for other types).
    const std::vector<JsonValue>& items() const { return m_items; }
    /// Members of an object in insertion order (empty for other types).
    const std::vector<Member>& members() const { return m_members; }
    /// The first member named @p key of an object, or nullptr.
    const JsonValue* find(std::string_view key) const;
    /// find(key)->asString/asNumber/asBool with a fallback when absent or of another type.
    std::string stringAt(std::string_view key, const std::string& fallback = {}) const;
    double numberAt(std::string_view key, double fallback = 0.0) const;
    bool boolAt(std::string_view key, bool fallback = false) const;

    /// Appends a member (the value must be an object; a null value becomes one).
    JsonValue& set(std::string key, JsonValue value);
    /// Appends an element (the value must be an array; a null value becomes one).
    JsonValue& push(JsonValue value);

    /// Serialises with @p indent spaces per level (0: one line).
    std::string dump(int indent = 2) const;

    /// Parses a complete document (surrounding whitespace allowed, nothing else after it).
    static Result<JsonValue> parse(std::string_view text);

  private:
    void write(std::string& out, int indent, int depth) const;

    Type m_type = Type::Null;
    bool m_bool = false;
    double m_number = 0.0;
    std::string m_string;
    std::vector<JsonValue> m_items;
    std::vector<Member> m_members;
};

}  // namespace tomo
