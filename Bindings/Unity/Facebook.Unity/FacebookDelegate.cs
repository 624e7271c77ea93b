namespace Facebook.Unity
{
    /// <summary>Receives the result of a request, on the thread that pumps <see cref="ResultDispatcher"/>.</summary>
    public delegate void FacebookDelegate<T>(T result) where T : IResult;

    /// <summary>Called once <see cref="FB.Init(string, System.Uri, string, InitDelegate)"/> has set the SDK up.</summary>
    public delegate void InitDelegate();
}
