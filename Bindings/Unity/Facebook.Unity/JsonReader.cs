namespace Facebook.Unity
{
    using System;
    using System.Collections.Generic;
    using System.Globalization;
    using System.Text;

    /// <summary>
    /// Reads the JSON the native library returns (RFC 8259) into dictionaries, lists, strings, doubles,
    /// booleans and null. Anything else, or anything after the value, is a <see cref="FormatException"/>.
    /// </summary>
    internal sealed class JsonReader
    {
        private const int MaximumDepth = 64;
        private readonly string text;
        private int position;

        private JsonReader(string text)
        {
            this.text = text;
        }

        /// <summary>The value <paramref name="text"/> holds.</summary>
        internal static object Parse(string text)
        {
            if (text == null)
            {
                throw new ArgumentNullException("text");
            }

            var reader = new JsonReader(text);
            reader.SkipWhitespace();
            object value = reader.ReadValue(0);
            reader.SkipWhitespace();
            if (reader.position != text.Length)
            {
                throw reader.Failure("text after the value");
            }

            return value;
        }

        /// <summary>The object <paramref name="text"/> holds; a <see cref="FormatException"/> for any other value.</summary>
        internal static IDictionary<string, object> ParseObject(string text)
        {
            var members = Parse(text) as IDictionary<string, object>;
            if (members == null)
            {
                throw new FormatException("the JSON text is not an object");
            }

            return members;
        }

        /// <summary>The string member <paramref name="name"/>, or null when it is absent or not a string.</summary>
        internal static string StringMember(IDictionary<string, object> members, string name)
        {
            object value;
            if (members != null && members.TryGetValue(name, out value))
            {
                return value as string;
            }

            return null;
        }

        /// <summary>The strings of the array member <paramref name="name"/>; empty when it is absent.</summary>
        internal static string[] StringArrayMember(IDictionary<string, object> members, string name)
        {
            object value;
            var strings = new List<string>();
            if (members != null && members.TryGetValue(name, out value) && value is List<object>)
            {
                foreach (object element in (List<object>)value)
                {
                    var text = element as string;
                    if (text != null)
                    {
                        strings.Add(text);
                    }
                }
            }

            return strings.ToArray();
        }

        private object ReadValue(int depth)
        {
            if (depth > MaximumDepth)
            {
                throw this.Failure("nesting deeper than " + MaximumDepth);
            }

            if (this.position >= this.text.Length)
            {
                throw this.Failure("a value is missing");
            }

            char first = this.text[this.position];
            switch (first)
            {
                case '{':
                    return this.ReadObject(depth);
                case '[':
                    return this.ReadArray(depth);
                case '"':
                    return this.ReadString();
                case 't':
                    this.Expect("true");
                    return true;
                case 'f':
                    this.Expect("false");
                    return false;
                case 'n':
                    this.Expect("null");
                    return null;
                default:
                    if (first == '-' || (first >= '0' && first <= '9'))
                    {
                        return this.ReadNumber();
                    }

                    throw this.Failure("unexpected character '" + first + "'");
            }
        }

        private Dictionary<string, object> ReadObject(int depth)
        {
            var members = new Dictionary<string, object>(StringComparer.Ordinal);
            this.position++;
            this.SkipWhitespace();
            if (this.Peek() == '}')
            {
                this.position++;
                return members;
            }

            while (true)
            {
                this.SkipWhitespace();
                if (this.Peek() != '"')
                {
                    throw this.Failure("a member name is missing");
                }

                string name = this.ReadString();
                if (members.ContainsKey(name))
                {
                    throw this.Failure("the member \"" + name + "\" appears twice");
                }

                this.SkipWhitespace();
                this.ExpectCharacter(':');
                this.SkipWhitespace();
                members[name] = this.ReadValue(depth + 1);
                this.SkipWhitespace();
                char next = this.Peek();
                this.position++;
                if (next == '}')
                {
                    return members;
                }

                if (next != ',')
                {
                    throw this.Failure("expected ',' or '}'");
                }
            }
        }

        private List<object> ReadArray(int depth)
        {
            var elements = new List<object>();
            this.position++;
            this.SkipWhitespace();
            if (this.Peek() == ']')
            {
                this.position++;
                return elements;
            }

            while (true)
            {
                this.SkipWhitespace();
                elements.Add(this.ReadValue(depth + 1));
                this.SkipWhitespace();
                char next = this.Peek();
                this.position++;
                if (next == ']')
                {
                    return elements;
                }

                if (next != ',')
                {
                    throw this.Failure("expected ',' or ']'");
                }
            }
        }

        private string ReadString()
        {
            var builder = new StringBuilder();
            this.position++;
            while (true)
            {
                if (this.position >= this.text.Length)
                {
                    throw this.Failure("a string is not closed");
                }

                char character = this.text[this.position++];
                if (character == '"')
                {
                    return builder.ToString();
                }

                if (character < ' ')
                {
                    throw this.Failure("a control character in a string");
                }

                if (character != '\\')
                {
                    builder.Append(character);
                    continue;
                }

                if (this.position >= this.text.Length)
                {
                    throw this.Failure("an escape is cut short");
                }

                char escape = this.text[this.position++];
                switch (escape)
                {
                    case '"': builder.Append('"'); break;
                    case '\\': builder.Append('\\'); break;
                    case '/': builder.Append('/'); break;
                    case 'b': builder.Append('\b'); break;
                    case 'f': builder.Append('\f'); break;
                    case 'n': builder.Append('\n'); break;
                    case 'r': builder.Append('\r'); break;
                    case 't': builder.Append('\t'); break;
                    case 'u':
                        if (this.position + 4 > this.text.Length)
                        {
                            throw this.Failure("a \\u escape is cut short");
                        }

                        int code;
                        if (!int.TryParse(this.text.Substring(this.position, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code))
                        {
                            throw this.Failure("a \\u escape is not four hexadecimal digits");
                        }

                        this.position += 4;
                        builder.Append((char)code);
                        break;
                    default:
                        throw this.Failure("an unknown escape \\" + escape);
                }
            }
        }

        private double ReadNumber()
        {
            int start = this.position;
            if (this.Peek() == '-')
            {
                this.position++;
            }

            int digits = this.SkipDigits();
            if (digits == 0 || (digits > 1 && this.text[this.position - digits] == '0'))
            {
                throw this.Failure("a number's integer part is not valid");
            }

            if (this.Peek() == '.')
            {
                this.position++;
                if (this.SkipDigits() == 0)
                {
                    throw this.Failure("a number's fraction has no digits");
                }
            }

            if (this.Peek() == 'e' || this.Peek() == 'E')
            {
                this.position++;
                if (this.Peek() == '+' || this.Peek() == '-')
                {
                    this.position++;
                }

                if (this.SkipDigits() == 0)
                {
                    throw this.Failure("a number's exponent has no digits");
                }
            }

            return double.Parse(this.text.Substring(start, this.position - start), NumberStyles.Float, CultureInfo.InvariantCulture);
        }

        private int SkipDigits()
        {
            int start = this.position;
            while (this.position < this.text.Length && this.text[this.position] >= '0' && this.text[this.position] <= '9')
            {
                this.position++;
            }

            return this.position - start;
        }

        private void SkipWhitespace()
        {
            while (this.position < this.text.Length)
            {
                char character = this.text[this.position];
                if (character != ' ' && character != '\t' && character != '\n' && character != '\r')
                {
                    return;
                }

                this.position++;
            }
        }

        private char Peek()
        {
            return this.position < this.text.Length ? this.text[this.position] : '\0';
        }

        private void Expect(string word)
        {
            if (string.CompareOrdinal(this.text, this.position, word, 0, word.Length) != 0)
            {
                throw this.Failure("expected " + word);
            }

            this.position += word.Length;
        }

        private void ExpectCharacter(char character)
        {
            if (this.Peek() != character)
            {
                throw this.Failure("expected '" + character + "'");
            }

            this.position++;
        }

        private FormatException Failure(string reason)
        {
            return new FormatException("the JSON text is not valid at offset " + this.position + ": " + reason);
        }
    }
}
