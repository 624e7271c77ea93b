import Foundation
import LimitedLoginCore

extension Profile {
    /// The shapes of a profile picture, as the iOS SDK's `Profile.PictureMode` (the Graph API's `type`).
    public enum PictureMode: UInt, Sendable, CaseIterable {
        /// A square cropped version of the picture.
        case square
        /// The original picture's aspect ratio.
        case normal
        /// The picture as used in albums.
        case album
        /// A small picture.
        case small
        /// A large picture.
        case large

        /// The Graph API's `type` value.
        public var graphType: String {
            switch self {
            case .square: return "square"
            case .normal: return "normal"
            case .album: return "album"
            case .small: return "small"
            case .large: return "large"
            }
        }
    }

    /// The URL of the person's picture at the Graph API (`{graph}/{version}/{userID}/picture`), as the iOS
    /// SDK's `imageURL(forMode:size:)`: with `type`, `width` and `height` (the size rounded down), and the
    /// current access token, else ``Settings/clientToken``, as `access_token`. Uses
    /// ``Settings/shared``'s endpoints.
    public func imageURL(forMode pictureMode: PictureMode, size: CGSize) -> URL? {
        imageURL(forMode: pictureMode, size: size, settings: .shared, accessToken: AccessToken.current)
    }

    /// ``imageURL(forMode:size:)`` with explicit settings and access token.
    public func imageURL(forMode pictureMode: PictureMode, size: CGSize, settings: Settings, accessToken: AccessToken?) -> URL? {
        var parameters = FormParameters()
        parameters.append("type", pictureMode.graphType)
        parameters.append("width", String(Int(size.width)))
        parameters.append("height", String(Int(size.height)))
        if let token = accessToken?.tokenString ?? settings.clientToken { parameters.append("access_token", token) }
        let pictureURL = settings.loginEndpoints.graphURL("\(userID)/picture")
        guard var components = URLComponents(url: pictureURL, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedQuery = parameters.encoded
        return components.url
    }
}
